/** Every language's texts at once: for the server, which answers each widget with only its visitor's language. */
import { texts as ar } from './ar';
import { texts as de } from './de';
import { texts as en } from './en';
import { texts as es } from './es';
import { texts as fr } from './fr';
import { texts as he } from './he';
import type { WidgetLocale, WidgetTexts } from './index';
import { texts as it } from './it';
import { texts as ja } from './ja';
import { texts as nl } from './nl';
import { texts as pt } from './pt';
import { texts as zhHans } from './zh-Hans';

export const BUILT_IN_TEXTS: Record<WidgetLocale, WidgetTexts> = { en, es, fr, de, pt, it, nl, ja, 'zh-Hans': zhHans, ar, he };
