/**
 * The visitor's language: which of the widget's built-in languages their browser's list picks (the locale matcher
 * of @formatjs/intl-localematcher, CLDR's best fit: zh-CN reads as Simplified Chinese, iw as Hebrew), and the
 * widget's visitor-visible settings with every text in that language (shared/widget-texts: the owner's override
 * for the language, else the owner's own text, else the built-in translation).
 */
import { match } from '@formatjs/intl-localematcher';
import type { ChatEndpoint } from '../models/ChatEndpoint';
import {
  DEFAULT_WIDGET_LOCALE,
  directionOf,
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

/** The well-formed BCP 47 tags of a browser's list, canonical (`de-de` → `de-DE`), in its order; junk dropped. */
export function browserLanguages(list: readonly unknown[]): string[] {
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
}

/** The built-in language for a browser's list; English when none fits. */
export function pickWidgetLocale(languages: readonly unknown[]): WidgetLocale {
  const tags = browserLanguages(languages);
  if (tags.length === 0) return DEFAULT_WIDGET_LOCALE;
  try {
    return match(tags, [...WIDGET_LOCALES], DEFAULT_WIDGET_LOCALE) as WidgetLocale;
  } catch {
    return DEFAULT_WIDGET_LOCALE;
  }
}

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
