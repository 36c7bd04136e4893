/**
 * The visitor's language: which of the widget's built-in languages their browser's list picks (the locale matcher
 * of @formatjs/intl-localematcher, CLDR's best fit: zh-CN reads as Simplified Chinese, iw as Hebrew), and the
 * widget's visitor-visible settings with every text in that language (shared/widget-texts: the owner's override
 * for the language, else the owner's own text, else the built-in translation).
 */
import { match } from '@formatjs/intl-localematcher';
import { LRUCache } from 'lru-cache';
import type { MailLanguage, MailSender } from '../mail/templates';
import type { ChatEndpoint } from '../models/ChatEndpoint';
import {
  DEFAULT_WIDGET_LOCALE,
  directionOf,
  fill,
  localizedOwnerTexts,
  type OwnerTextKey,
  type UiTexts,
  WIDGET_LOCALES,
  type WidgetLocale,
} from '../shared/widget-texts';
import { BUILT_IN_TEXTS } from '../shared/widget-texts/all';

/** At most this many of the browser's languages are looked at (a list is rarely longer than five). */
const MAX_LANGUAGES = 10;
const TAG_CHARS = 35;

/**
 * `compute` of a browser's list, kept for the lists seen last: a page view's settings and a widget's hello each ask
 * it, and browsers send few distinct lists. A list with anything but short texts is computed each time.
 */
function keptPerList<T>(compute: (list: readonly unknown[]) => T): (list: readonly unknown[]) => T {
  const kept = new LRUCache<string, { value: T }>({ max: 2000 });
  return (list) => {
    // compute reads the first MAX_LANGUAGES * 2 items alone.
    const read = list.slice(0, MAX_LANGUAGES * 2);
    if (!read.every((item) => typeof item === 'string' && item.length <= TAG_CHARS)) return compute(list);
    // Each item apart (['fr,de'] is not ['fr', 'de']): one visitor's junk must not answer for another's list.
    const key = JSON.stringify(read);
    const hit = kept.get(key);
    if (hit) return hit.value;
    const value = compute(read);
    kept.set(key, { value });
    return value;
  };
}

/** The well-formed BCP 47 tags of a browser's list, canonical (`de-de` → `de-DE`), in its order; junk dropped. */
export const browserLanguages = keptPerList((list): readonly string[] => {
  const out: string[] = [];
  for (const item of list.slice(0, MAX_LANGUAGES * 2)) {
    if (typeof item !== 'string' || item.length === 0 || item.length > TAG_CHARS || item === '*') continue;
    try {
      const [tag] = Intl.getCanonicalLocales(item.trim());
      if (tag && !out.includes(tag)) out.push(tag);
    } catch {
      // Not a language tag: ignored, like a browser ignores it.
    }
    if (out.length === MAX_LANGUAGES) break;
  }
  return out;
});

/** The built-in language for a browser's list; English when none fits. */
export const pickWidgetLocale = keptPerList((languages): WidgetLocale => {
  const tags = browserLanguages(languages);
  if (tags.length === 0) return DEFAULT_WIDGET_LOCALE;
  try {
    return match([...tags], [...WIDGET_LOCALES], DEFAULT_WIDGET_LOCALE) as WidgetLocale;
  } catch {
    return DEFAULT_WIDGET_LOCALE;
  }
});

/** What a widget's config tells the visitor's browser about its language. */
export type WidgetLanguage = { locale: WidgetLocale; dir: 'ltr' | 'rtl'; texts: UiTexts };

export function widgetLanguage(locale: WidgetLocale): WidgetLanguage {
  return { locale, dir: directionOf(locale), texts: BUILT_IN_TEXTS[locale].ui };
}

/** `settings` (a widget's public settings, or a config frame's) with every owner text in `locale`. */
export function localizeSettings<S extends Partial<Record<OwnerTextKey, unknown>>>(
  settings: S,
  overrides: ChatEndpoint['textOverrides'] | undefined,
  locale: WidgetLocale,
): S {
  const own = settings as Partial<Record<OwnerTextKey, string>>;
  return { ...settings, ...localizedOwnerTexts(own, overrides, locale, BUILT_IN_TEXTS[locale], BUILT_IN_TEXTS.en) };
}

/** The language's name in English with its region, for operators: `de-DE` → "German (Germany)". */
export function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag);
    return name && name !== tag ? name : tag;
  } catch {
    return tag;
  }
}

/**
 * The language tag a visitor's mails are formatted in: the first of the browser's tags that the widget's language
 * `chosen` covers (fr-CA for French), else the widget's language itself. Stored at hello (Visitor.locale).
 */
export function visitorLocaleTag(languages: readonly unknown[], chosen: WidgetLocale): string {
  return browserLanguages(languages).find((tag) => pickWidgetLocale([tag]) === chosen) ?? chosen;
}

/** An IANA time zone the runtime knows (Europe/Paris), or '' for anything else. */
export function validTimeZone(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(value)) return '';
  try {
    return new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return '';
  }
}

/** What a visitor's mail needs of their language: the mail's language, and the owner's texts in it. */
export type VisitorMailLanguage = { language: MailLanguage; texts: Record<OwnerTextKey, string> };

/**
 * The language of a visitor's mails: the widget's language they were given (from Visitor.locale, or the browser
 * language kept before it was), their time zone (UTC when unknown), and the widget's texts in that language with
 * the owner's overrides.
 */
export function visitorMailLanguage(
  ce: Partial<Record<OwnerTextKey, unknown>> & { textOverrides?: ChatEndpoint['textOverrides'] },
  visitor: { locale?: string; timeZone?: string; language?: string } | null,
): VisitorMailLanguage {
  const tag = visitor?.locale || visitor?.language || '';
  const locale = tag ? pickWidgetLocale([tag]) : DEFAULT_WIDGET_LOCALE;
  const own = ce as Partial<Record<OwnerTextKey, string>>;
  return {
    language: {
      locale,
      formatLocale: tag && pickWidgetLocale([tag]) === locale ? tag : locale,
      timeZone: validTimeZone(visitor?.timeZone) || 'UTC',
    },
    texts: localizedOwnerTexts(own, ce.textOverrides, locale, BUILT_IN_TEXTS[locale], BUILT_IN_TEXTS.en),
  };
}

/** Who a visitor's mail is from: the widget's sender name (its title in the visitor's language when none is set). */
export function mailSender(
  ce: { senderName?: string; titleColor: string; titleFontColor: string; RoomName?: string },
  texts: Record<OwnerTextKey, string>,
): MailSender {
  const title = texts.onlineTitle || ce.RoomName || '';
  return { name: ce.senderName?.trim() || title, title, titleColor: ce.titleColor, titleFontColor: ce.titleFontColor };
}

/**
 * The chat's line when the first operator answers (opJoinAutoResponseMessage), in the visitor's language: the owner's
 * own wording as they wrote it, the stock one in Parley's translation for the visitor.
 */
export function operatorJoinedLine(ownText: string, visitor: { locale?: string; language?: string } | null, name: string): string {
  const tag = visitor?.locale || visitor?.language || '';
  const locale = tag ? pickWidgetLocale([tag]) : DEFAULT_WIDGET_LOCALE;
  const text = ownText === BUILT_IN_TEXTS.en.ui.operatorJoined ? BUILT_IN_TEXTS[locale].ui.operatorJoined : ownText;
  return fill(text, { name });
}
