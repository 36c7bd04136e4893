/**
 * The widget's built-in texts in the console, one language at a time: each language file is its own lazily
 * loaded chunk, fetched when the Appearance tab shows or previews that language.
 */
import { useEffect, useState } from 'react';
import type { WidgetLocale, WidgetTexts } from '../../../../server/shared/widget-texts';

type Module = { texts: WidgetTexts };
const LOADERS: Record<WidgetLocale, () => Promise<Module>> = {
  en: () => import('../../../../server/shared/widget-texts/en'),
  es: () => import('../../../../server/shared/widget-texts/es'),
  fr: () => import('../../../../server/shared/widget-texts/fr'),
  de: () => import('../../../../server/shared/widget-texts/de'),
  pt: () => import('../../../../server/shared/widget-texts/pt'),
  it: () => import('../../../../server/shared/widget-texts/it'),
  nl: () => import('../../../../server/shared/widget-texts/nl'),
  ja: () => import('../../../../server/shared/widget-texts/ja'),
  'zh-Hans': () => import('../../../../server/shared/widget-texts/zh-Hans'),
  ar: () => import('../../../../server/shared/widget-texts/ar'),
  he: () => import('../../../../server/shared/widget-texts/he'),
};

const loaded = new Map<WidgetLocale, WidgetTexts>();

/** The built-in texts of `locale`, or null while its chunk loads (or when it could not be loaded). */
export function useWidgetTexts(locale: WidgetLocale): WidgetTexts | null {
  const [texts, setTexts] = useState<WidgetTexts | null>(() => loaded.get(locale) ?? null);
  useEffect(() => {
    const known = loaded.get(locale);
    if (known) {
      setTexts(known);
      return undefined;
    }
    let live = true;
    setTexts(null);
    LOADERS[locale]()
      .then((module) => {
        loaded.set(locale, module.texts);
        if (live) setTexts(module.texts);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [locale]);
  return texts;
}
