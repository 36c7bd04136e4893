/**
 * How the help center's search reads text in each of the widget's languages: words cut out (Intl.Segmenter for
 * Japanese and Chinese, which write no spaces), folded to lower case, stop words dropped (the `stopword` package's
 * lists plus a few chat fillers), and stemmed with the Snowball stemmers of @orama/stemmers where a language has one
 * (Japanese, Chinese and Hebrew are matched on whole words, with prefixes and typos).
 */
import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import * as stopword from 'stopword';

/** A word as found in a text: where it is (for snippets), its folded form, and its stem ('' for a stop word). */
export type Word = { start: number; end: number; folded: string; stem: string };

export type Analyzer = {
  language: string;
  /** Every word of `text`, stop words included (their stem is ''), each folded on its own (NFKC, lower case). */
  words(text: string): Word[];
  /** The stems of `text` as the index keeps them: stop words left out. */
  stems(text: string): string[];
};

/** What visitors add to a question in a chat and no article is about (greetings, politeness, contractions). */
const CHAT_FILLERS: Record<string, string[]> = {
  en: [
    'hi',
    'hello',
    'hey',
    'please',
    'pls',
    'plz',
    'thanks',
    'thank',
    'thx',
    'ok',
    'okay',
    'cant',
    'cannot',
    'dont',
    'doesnt',
    'didnt',
    'wont',
    'isnt',
    'arent',
    'wasnt',
    'im',
    'ive',
    'id',
    'youre',
    'u',
    'ur',
    'want',
    'need',
    'would',
    'like',
    'trying',
    'anyone',
    'someone',
    'guys',
    'just',
    'yes',
    'no',
    'not',
    'why',
    'when',
    'does',
  ],
  es: ['hola', 'gracias', 'porfa', 'favor', 'quiero', 'necesito', 'puedo', 'cómo', 'como'],
  fr: ['bonjour', 'salut', 'merci', 'svp', 'stp', 'veux', 'voudrais', 'besoin', 'peux', 'comment'],
  de: ['hallo', 'danke', 'bitte', 'möchte', 'brauche', 'kann', 'wie'],
  pt: ['olá', 'ola', 'obrigado', 'obrigada', 'favor', 'quero', 'preciso', 'como'],
  it: ['ciao', 'grazie', 'voglio', 'vorrei', 'posso', 'come'],
  nl: ['hallo', 'hoi', 'bedankt', 'dank', 'alstublieft', 'graag', 'wil', 'hoe'],
  ja: [],
  'zh-Hans': [],
  ar: ['مرحبا', 'شكرا'],
  he: ['שלום', 'תודה'],
};

const STOP_LISTS: Record<string, string[]> = {
  en: stopword.eng,
  es: stopword.spa,
  fr: stopword.fra,
  de: stopword.deu,
  pt: stopword.por,
  it: stopword.ita,
  nl: stopword.nld,
  ja: stopword.jpn,
  'zh-Hans': stopword.zho,
  ar: stopword.ara,
  he: stopword.heb,
};

const STEMMERS: Record<string, (word: string) => string> = {
  en: english,
  es: spanish,
  fr: french,
  de: german,
  pt: portuguese,
  it: italian,
  nl: dutch,
  ar: arabic,
};

/** Languages whose words are cut by Intl.Segmenter rather than by spaces and punctuation. */
const SEGMENTED = new Set(['ja', 'zh-Hans']);
/** French and Italian elide articles into the next word (l'adresse, dell'account): the elided part is dropped. */
const ELIDING = new Set(['fr', 'it']);

const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu;

/** Plain ASCII needs no Unicode normalisation (the common case, and the cheap one). */
const ASCII = /^[ -~]*$/;
const fold = (word: string) => (ASCII.test(word) ? word.toLowerCase() : word.normalize('NFKC').toLowerCase());

function createAnalyzer(language: string): Analyzer {
  const stop = new Set([...(STOP_LISTS[language] ?? []), ...(CHAT_FILLERS[language] ?? [])].map(fold));
  const stem = STEMMERS[language] ?? ((w: string) => w);
  // Visitors often leave accents out (resilier, loschen): stems are compared without them, except in Japanese and
  // Chinese, whose marks (dakuten) are parts of the letter.
  const unmark = SEGMENTED.has(language)
    ? (w: string) => w
    : (w: string) => (ASCII.test(w) ? w : w.normalize('NFD').replace(/\p{M}/gu, ''));
  const segmenter = SEGMENTED.has(language) ? new Intl.Segmenter(language, { granularity: 'word' }) : null;
  /** A raw word's folded form (elisions dropped) and stem, kept per raw word: most words of a text recur. */
  const readCache = new Map<string, { skip: number; folded: string; stem: string }>();
  const read = (raw: string): { skip: number; folded: string; stem: string } => {
    let kept = readCache.get(raw);
    if (kept === undefined) {
      let folded = fold(raw);
      let skip = 0;
      if (folded.includes("'") || folded.includes('’')) {
        const parts = folded.split(/['’]/);
        if (ELIDING.has(language) && parts.length === 2 && (parts[0]?.length ?? 0) <= 2) {
          skip = (parts[0]?.length ?? 0) + 1;
          folded = parts[1] ?? '';
        } else folded = parts.join('');
      }
      kept = { skip, folded, stem: !folded || stop.has(folded) ? '' : unmark(stem(folded) || folded) };
      if (readCache.size > 100_000) readCache.clear();
      readCache.set(raw, kept);
    }
    return kept;
  };
  const push = (out: Word[], start: number, raw: string) => {
    const { skip, folded, stem } = read(raw);
    if (folded) out.push({ start: start + skip, end: start + raw.length, folded, stem });
  };
  const words = (text: string): Word[] => {
    const out: Word[] = [];
    if (segmenter) {
      for (const s of segmenter.segment(text)) {
        if (!s.isWordLike) continue;
        // Latin words and numbers inside Japanese or Chinese text (2FA, iPhone) are cut the usual way.
        for (const m of s.segment.matchAll(WORD)) push(out, s.index + (m.index ?? 0), m[0]);
      }
      return out;
    }
    for (const m of text.matchAll(WORD)) push(out, m.index ?? 0, m[0]);
    return out;
  };
  return {
    language,
    words,
    stems: (text) => {
      const out: string[] = [];
      if (segmenter) {
        for (const w of words(text)) if (w.stem) out.push(w.stem);
        return out;
      }
      for (const m of text.matchAll(WORD)) {
        const { stem } = read(m[0]);
        if (stem) out.push(stem);
      }
      return out;
    },
  };
}

const analyzers = new Map<string, Analyzer>();

/** The analyzer of `language` (one of the widget's languages; another one is read as words without stems). */
export function analyzerOf(language: string): Analyzer {
  let analyzer = analyzers.get(language);
  if (!analyzer) {
    analyzer = createAnalyzer(language);
    analyzers.set(language, analyzer);
  }
  return analyzer;
}

/**
 * An article's Markdown as the plain text the index reads and snippets show (escaped where they are shown): the
 * Markdown and HTML marks left out, link and image texts kept, their addresses dropped. Much cheaper than rendering
 * (ownerText's articlePlain), which matters for a help center of thousands of articles.
 */
export function markdownText(markdown: string): string {
  // HTML tags are markup, except in code, where they are the text (an article about embedding `<script>`).
  const untagged = markdown
    .split(/(`+[^`]*`+)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/<[^>\n]*>/g, ' ')))
    .join('');
  return untagged
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '')
    .replace(/\*\*|__|~~|`+|(?<![\p{L}\p{N}])[*_]|[*_](?![\p{L}\p{N}])/gu, '')
    .replace(/^\s*\|?(?:\s*:?-{3,}:?\s*\|?)+\s*$/gm, '')
    .replace(/\s*\|\s*/g, ' · ')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
