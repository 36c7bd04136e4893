/**
 * How close two short texts are, for the suggestions operators get in Slack (saved replies, past answers): the words
 * that carry meaning (lowercased, accents folded, the stop words of the widget's 11 languages left out, Chinese and
 * Japanese as character pairs) found with MiniSearch's typo and prefix tolerance. A text is close when it shares most
 * of the question's words, not when it shares one common one: a greeting must not suggest every reply that greets.
 */
import MiniSearch, { type SearchResult } from 'minisearch';
import { ara, deu, eng, fra, heb, ita, jpn, nld, por, spa, zho } from 'stopword';

const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** Stop words of the widget's languages, folded as the texts are. */
const STOP_WORDS = new Set([eng, spa, fra, deu, por, ita, nld, jpn, zho, ara, heb].flat().map(fold));

/** Scripts written without spaces between words: their runs become overlapping character pairs. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** The words of a text that carry its meaning, in order (repeats kept). */
export function meaningfulTerms(text: string): string[] {
  const out: string[] = [];
  for (const [word] of fold(text).matchAll(/[\p{L}\p{N}]+/gu)) {
    if (UNSPACED.test(word)) {
      if (word.length === 1) out.push(word);
      for (let i = 0; i + 1 < word.length; i++) out.push(word.slice(i, i + 2));
    } else if (word.length > 1 && !STOP_WORDS.has(word)) {
      out.push(word);
    }
  }
  return out;
}

/** Typos forgiven in words of five letters or more; a word of four or more also finds the longer words it starts. */
const SEARCH = {
  fuzzy: (term: string) => (term.length >= 5 ? 0.2 : 0),
  prefix: (term: string) => term.length >= 4,
  combineWith: 'OR',
} as const;

export type CloseText<T> = { item: T; score: number };

/**
 * An index of short texts (each an item with fields), asked for the items close to a question. `fields` are the
 * item's texts, each with its weight.
 */
export class CloseTexts<T> {
  private readonly search: MiniSearch<{ id: number; [field: string]: string | number }>;
  private readonly items: T[] = [];
  private readonly sizes: number[] = [];

  constructor(private readonly fields: Record<string, number>) {
    this.search = new MiniSearch({
      fields: Object.keys(fields),
      storeFields: [],
      tokenize: meaningfulTerms,
      processTerm: (term) => term,
      searchOptions: { ...SEARCH, boost: fields },
    });
  }

  get size(): number {
    return this.items.length;
  }

  add(item: T, texts: Record<string, string>): void {
    const id = this.items.length;
    this.items.push(item);
    this.sizes.push(new Set(Object.values(texts).flatMap(meaningfulTerms)).size);
    this.search.add({ id, ...texts });
  }

  /**
   * The items close to `question`, best first: those holding at least `share` of its meaningful words (and two of
   * them when it has two or more); with `symmetric`, the item's own words must be mostly the question's too (two
   * questions, not a question and a long answer).
   */
  close(question: string, options: { share: number; symmetric?: boolean; limit: number }): CloseText<T>[] {
    const asked = new Set(meaningfulTerms(question));
    if (asked.size === 0 || this.items.length === 0) return [];
    const needed = Math.max(Math.min(2, asked.size), Math.ceil(asked.size * options.share));
    const results = this.search.search([...asked].join(' '), { ...SEARCH, boost: this.fields }) as SearchResult[];
    const out: CloseText<T>[] = [];
    for (const result of results) {
      const id = Number(result.id);
      const found = new Set(result.queryTerms).size;
      if (found < needed) continue;
      if (options.symmetric && new Set(result.terms).size < Math.ceil(this.sizes[id] * options.share)) continue;
      out.push({ item: this.items[id], score: result.score });
      if (out.length >= options.limit) break;
    }
    return out;
  }
}
