/**
 * Searching a widget's help center. The contract every part uses (widget search, auto-answers, Slack
 * suggestions, the public pages): published articles only, best first, in the visitor's language or, when the
 * widget has none in it, the help center's main language; an empty list when nothing is relevant enough.
 *
 * Each widget's published articles are indexed in memory (MiniSearch, one index a language, read by
 * answers/analyze.ts: stems and stop words of the language), built on the first search and kept in an LRU bounded by
 * the articles it holds. A question is read the same way, each of its words widened to its equivalents (the owner's
 * synonyms, answers/vocabulary.ts) and matched with typos and prefixes; titles weigh more than bodies, and the words
 * visitors used in conversations an article answered (answers/learned.ts) a little. An article is a hit only when it
 * covers enough of the question's rare words (see `relevance`), so an unrelated question finds nothing.
 *
 * Freshness: `changed(ceId)` drops the widget's index at once; other processes' writes are seen through a check of
 * the widget's newest article and synonym times and article count, read at most every FRESHNESS_MS.
 */
import { LRUCache } from 'lru-cache';
import MiniSearch, { type Query, type SearchResult } from 'minisearch';
import type { Types } from 'mongoose';
import { escapeHtml } from '../escapeHtml';
import type { Models } from '../models';
import type { ArticleHit } from '../shared/articles';
import { type ShortReads, shortReads } from '../shortReads';
import { type Analyzer, analyzerOf, markdownText } from './analyze';
import { learnedWords } from './learned';
import { SUPPORT_VOCABULARY } from './vocabulary';

/** A hit with what the callers beyond the widget need (Slack cards, auto-answers). */
export type ArticleSearchHit = ArticleHit & { language: string; slug: string };

/** The widget a search is about: its id and its public uuid (for the article's URL). */
export type SearchWidget = { _id: Types.ObjectId | string; Uuid: string };

export interface ArticleSearch {
  /**
   * `language`: the visitor's, or how to read it, asked only when the widget's articles are in more than its main
   * language (a search of a help center in one language, or of none, reads nothing for it).
   */
  search(widget: SearchWidget, query: string, language: string | (() => Promise<string>), limit?: number): Promise<ArticleSearchHit[]>;
  /** An article of `ceId` was written in this process: the next search reads it (other processes within a second). */
  changed(ceId: string): void;
}

export type ArticleSearchDeps = {
  models: Pick<Models, 'Article' | 'AnswerSynonyms' | 'AnswerEvent' | 'Message'>;
  /** The public base URL of Parley (config.publicUrl), for each hit's link. */
  baseUrl: string;
  /** How many articles the indexes kept in memory hold at most, all widgets together (default 200,000). */
  maxIndexedArticles?: number;
  /** How long another process's article write may stay unseen (default 500 ms). */
  freshnessMs?: number;
  /** An index is built again after this long even without a write, to take in newly learned words (default 10 min). */
  maxIndexAgeMs?: number;
};

const MAX_HITS = 5;
/** Field weights: a title word counts three times a body word; words learned from conversations less than either. */
const BOOST = { title: 3, body: 1, learned: 0.4 };
/** The share of the question's weight (rare words weigh more) an article must cover to be a hit. */
const MIN_COVERAGE = 0.3;
/** Hits after the first must score at least this share of the first's. */
const MIN_SHARE_OF_BEST = 0.25;
/** A word matched only with a typo counts this much of a word matched as written. */
const FUZZY_CREDIT = 0.6;
/** A word no article has weighs this share of the rarest word articles have. */
const UNKNOWN_WEIGHT = 1;
const SNIPPET_CHARS = 180;

/**
 * The public page of an article. Translations of one article share its slug (the slug is unique per widget and
 * language), so the page's address names the language.
 */
export function articleUrl(baseUrl: string, widgetUuid: string, slug: string, language: string): string {
  return `${baseUrl.replace(/\/$/, '')}/help/${encodeURIComponent(widgetUuid)}/${encodeURIComponent(slug)}?lang=${encodeURIComponent(language)}`;
}

/** One indexed article: what a hit shows. */
type Entry = { id: string; title: string; slug: string; language: string; plain: string };
/** A group of equivalent words or phrases, each as the stems the index holds ([] dropped). */
type Equivalents = string[][];

type LanguageIndex = {
  analyzer: Analyzer;
  search: MiniSearch<{ id: number; title: string; body: string; learned: string }>;
  entries: Entry[];
  /** The synonym groups (owner's, then built-in) read by this language's analyzer, by each alternative's first stem. */
  equivalents: Map<string, Equivalents[]>;
  /** How many articles hold each stem (title, body or learned words). */
  frequency: Map<string, number>;
};

type WidgetIndex = {
  languages: Map<string, LanguageIndex>;
  /** The language with most published articles: the fallback of a visitor whose language has none. */
  main: string;
  articles: number;
  version: string;
  builtAt: number;
};

/** A question read for the index: groups of alternatives (each a list of stems, all needed), one group a word. */
type QueryGroup = { alternatives: string[][]; original: string[] };

export function createArticleSearch(deps: ArticleSearchDeps): ArticleSearch {
  const { models } = deps;
  const freshnessMs = deps.freshnessMs ?? 500;
  const maxAgeMs = deps.maxIndexAgeMs ?? 10 * 60_000;
  const indexes = new LRUCache<string, { index: Promise<WidgetIndex> }>({
    maxSize: deps.maxIndexedArticles ?? 200_000,
    sizeCalculation: () => 1,
  });
  // The size of an index is known once it is built: kept beside it, the LRU is told on build.
  const versions: ShortReads<object, string> = shortReads(freshnessMs);

  const versionOf = (ceId: string): Promise<string> =>
    versions.get(models, ceId, async () => {
      const [newest, count, synonyms] = await Promise.all([
        models.Article.findOne({ ceId }).sort({ updatedAt: -1 }).select('updatedAt').lean(),
        models.Article.countDocuments({ ceId }),
        models.AnswerSynonyms.findOne({ ceId }).select('updatedAt').lean(),
      ]);
      return `${count}:${newest?.updatedAt?.getTime() ?? 0}:${synonyms?.updatedAt?.getTime() ?? 0}`;
    });

  const build = async (ceId: string, version: string): Promise<WidgetIndex> => {
    const [articles, synonyms, learned] = await Promise.all([
      models.Article.find({ ceId, published: true }).select('title body language slug').lean(),
      models.AnswerSynonyms.findOne({ ceId }).select('groups').lean(),
      learnedWords(models, ceId),
    ]);
    const byLanguage = new Map<string, typeof articles>();
    for (const a of articles) {
      const list = byLanguage.get(a.language) ?? [];
      list.push(a);
      byLanguage.set(a.language, list);
    }
    const languages = new Map<string, LanguageIndex>();
    let main = 'en';
    let most = 0;
    for (const [language, list] of [...byLanguage].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (list.length > most || (list.length === most && language === 'en')) {
        most = list.length;
        main = language;
      }
      const analyzer = analyzerOf(language);
      // Each article's stems are counted once as MiniSearch reads its fields (`current` is the article being added).
      const frequency = new Map<string, number>();
      let current = -1;
      const lastSeen = new Map<string, number>();
      const search = new MiniSearch<{ id: number; title: string; body: string; learned: string }>({
        fields: ['title', 'body', 'learned'],
        storeFields: [],
        tokenize: (text) => {
          const stems = analyzer.stems(text);
          for (const stem of stems) {
            if (lastSeen.get(stem) === current) continue;
            lastSeen.set(stem, current);
            frequency.set(stem, (frequency.get(stem) ?? 0) + 1);
          }
          return stems;
        },
        processTerm: (term) => term,
        searchOptions: { tokenize: (text) => [text], processTerm: (term) => term },
      });
      const entries: Entry[] = [];
      list.forEach((a, i) => {
        const plain = markdownText(a.body);
        entries.push({ id: String(a._id), title: a.title, slug: a.slug, language, plain });
        current = i;
        search.add({ id: i, title: a.title, body: plain, learned: learned.get(String(a._id))?.join('\n') ?? '' });
      });
      languages.set(language, { analyzer, search, entries, frequency, equivalents: equivalentsOf(analyzer, synonyms?.groups ?? []) });
    }
    return { languages, main, articles: articles.length, version, builtAt: Date.now() };
  };

  const indexOf = async (ceId: string): Promise<WidgetIndex> => {
    const version = await versionOf(ceId);
    const kept = indexes.get(ceId);
    if (kept) {
      const index = await kept.index.catch(() => null);
      if (index && index.version === version && Date.now() - index.builtAt < maxAgeMs) return index;
      // Another search may already have started the new build.
      const again = indexes.get(ceId);
      if (again && again !== kept) return again.index;
    }
    const entry = { index: build(ceId, version) };
    indexes.set(ceId, entry);
    entry.index.then(
      (index) => {
        if (indexes.peek(ceId) === entry) indexes.set(ceId, entry, { size: index.articles + 1 });
      },
      () => {
        if (indexes.peek(ceId) === entry) indexes.delete(ceId);
      },
    );
    return entry.index;
  };

  return {
    async search(widget, query, language, limit = MAX_HITS) {
      const ceId = String(widget._id);
      if (!query.trim()) return [];
      const index = await indexOf(ceId);
      if (index.languages.size === 0) return [];
      const onlyMain = index.languages.size === 1 ? index.languages.get(index.main) : undefined;
      const lang =
        onlyMain ?? index.languages.get(typeof language === 'string' ? language : await language()) ?? index.languages.get(index.main);
      if (!lang) return [];
      return searchLanguage(lang, query)
        .slice(0, Math.min(limit, MAX_HITS))
        .map(({ entry, score, marked }) => ({
          id: entry.id,
          title: entry.title,
          snippet: snippet(lang.analyzer, entry.plain, marked),
          url: articleUrl(deps.baseUrl, widget.Uuid, entry.slug, entry.language),
          score: Math.round(score * 1000) / 1000,
          language: entry.language,
          slug: entry.slug,
        }));
    },
    changed(ceId) {
      versions.drop(models, String(ceId));
      indexes.delete(String(ceId));
    },
  };
}

/** The owner's groups and the built-in vocabulary of `language`, each alternative read as the index reads text. */
function equivalentsOf(analyzer: Analyzer, ownerGroups: string[]): Map<string, Equivalents[]> {
  const lines = [...ownerGroups, ...(SUPPORT_VOCABULARY['*'] ?? []), ...(SUPPORT_VOCABULARY[analyzer.language] ?? [])];
  const byFirst = new Map<string, Equivalents[]>();
  for (const line of lines) {
    const group: Equivalents = [];
    const seen = new Set<string>();
    for (const phrase of line.split(',')) {
      const stems = analyzer.words(phrase).map((w) => w.stem || w.folded);
      const key = stems.join(' ');
      if (stems.length === 0 || seen.has(key)) continue;
      seen.add(key);
      group.push(stems);
    }
    if (group.length < 2) continue;
    for (const alternative of group) {
      const first = alternative[0] as string;
      const list = byFirst.get(first) ?? [];
      list.push(group);
      byFirst.set(first, list);
    }
  }
  return byFirst;
}

/**
 * The question as groups of alternatives: a phrase of an equivalence group ("log in", stop words included) becomes
 * the whole group; any other word its stem. Stop words alone are dropped.
 */
function readQuery(lang: LanguageIndex, query: string): QueryGroup[] {
  const words = lang.analyzer.words(query);
  const keys = words.map((w) => w.stem || w.folded);
  const groups: QueryGroup[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < words.length; ) {
    let matched: { group: Equivalents; length: number } | null = null;
    for (const group of lang.equivalents.get(keys[i] as string) ?? []) {
      for (const alternative of group) {
        const length = alternative.length;
        if (length <= (matched?.length ?? 0) || i + length > keys.length) continue;
        if (alternative.every((stem, k) => keys[i + k] === stem)) matched = { group, length };
      }
    }
    if (matched) {
      const original = keys.slice(i, i + matched.length);
      const alternatives = matched.group.map((alt) => alt.filter((stem) => !isStop(lang, stem))).filter((alt) => alt.length > 0);
      const key = alternatives.map((a) => a.join(' ')).join('|');
      if (alternatives.length > 0 && !seen.has(key)) {
        seen.add(key);
        groups.push({ alternatives, original });
      }
      i += matched.length;
      continue;
    }
    const stem = words[i]?.stem;
    if (stem && !seen.has(stem)) {
      seen.add(stem);
      groups.push({ alternatives: [[stem]], original: [stem] });
    }
    i++;
  }
  return groups;
}

/** A stem the analyzer would drop: the stop words inside an equivalence phrase ("log in"). */
const isStop = (lang: LanguageIndex, stem: string): boolean => lang.analyzer.stems(stem).length === 0;

type Scored = { entry: Entry; score: number; marked: Set<string> };

/** Above this many articles, a word most of them hold tells nothing and is left out (it would cost, not rank). */
const COMMON_FROM = 50;
/** How many (article, word) pairs a search scores at most, beyond its two rarest words. */
const POSTINGS_BUDGET = 1500;

const idf = (total: number, df: number) => Math.log(1 + (total - df + 0.5) / (df + 0.5));

/**
 * The relevant articles of one language, best first. MiniSearch scores each article (BM25 over title, body and
 * learned words, typos and prefixes weighted down); the article's coverage of the question weighs that score and
 * decides what is relevant at all: each group of the question weighs its rarity in the help center (a word no
 * article has weighs most), and an article covers the groups it matches. A word the help center has is matched as
 * written (and as a prefix); a word it does not have is looked for with typos.
 */
function searchLanguage(lang: LanguageIndex, query: string): Scored[] {
  const total = lang.search.documentCount;
  const all = readQuery(lang, query);
  const exactFrequency = all.map((g) =>
    Math.max(0, ...g.alternatives.map((alt) => Math.min(...alt.map((t) => lang.frequency.get(t) ?? 0)))),
  );
  // The cost of a search is the articles its words are in: the rarest words are kept within a budget (at least two),
  // the commonest left out (they rank little), as a big help center's engine prunes.
  const postings = all.map((g) => g.alternatives.reduce((sum, alt) => sum + Math.min(...alt.map((t) => lang.frequency.get(t) ?? 0)), 0));
  const kept = new Set<number>();
  let spent = 0;
  for (const g of all.map((_, g) => g).sort((a, b) => (postings[a] ?? 0) - (postings[b] ?? 0))) {
    const cost = postings[g] ?? 0;
    const common = total >= COMMON_FROM && (exactFrequency[g] ?? 0) > total / 2;
    if (common || (kept.size >= 2 && spent + cost > POSTINGS_BUDGET)) continue;
    kept.add(g);
    spent += cost;
  }
  const groups = all.filter((_, g) => kept.has(g));
  const frequencies = exactFrequency.filter((_, g) => kept.has(g));
  if (groups.length === 0) return [];
  const typing = !/[\s\p{P}]$/u.test(query);
  const leafGroups = new Map<string, number[]>();
  const known = (term: string) => lang.frequency.has(term);
  const lastGroup = groups.length - 1;
  const queries: Query[] = groups.map((group, g) => ({
    combineWith: 'OR',
    queries: group.alternatives.map((alternative) => {
      for (const stem of alternative) leafGroups.set(stem, [...(leafGroups.get(stem) ?? []), g]);
      const leaves = alternative.map((term) => ({
        queries: [term],
        fuzzy: !known(term) && term.length >= 4 ? (term.length >= 8 ? 2 : 1) : false,
        prefix: term.length >= 4 && (!known(term) || (typing && g === lastGroup)),
      }));
      return leaves.length === 1 ? (leaves[0] as Query) : { combineWith: 'AND', queries: leaves };
    }),
  }));
  const results: SearchResult[] = lang.search.search(
    { combineWith: 'OR', queries },
    {
      boost: BOOST,
      weights: { fuzzy: 0.45, prefix: 0.6 },
      boostTerm: (term) => (groups.some((g) => g.original.includes(term)) ? 1 : 0.8),
    },
  );
  if (results.length === 0) return [];
  const matchedGroups = (result: SearchResult): Map<number, number> => {
    const credit = new Map<number, number>();
    const docTerms = Object.keys(result.match);
    for (const queryTerm of result.queryTerms) {
      const exact = docTerms.some((t) => t === queryTerm || t.startsWith(queryTerm));
      for (const g of leafGroups.get(queryTerm) ?? []) credit.set(g, Math.max(credit.get(g) ?? 0, exact ? 1 : FUZZY_CREDIT));
    }
    return credit;
  };
  const perResult = results.map((result) => ({ result, credit: matchedGroups(result) }));
  // A group found as written weighs by the articles holding it; one found only with typos by the articles it matched.
  const weight = groups.map((_, g) => {
    const df = frequencies[g] || perResult.filter(({ credit }) => credit.has(g)).length;
    // A word no article has weighs as the rarest word articles have: it may be off the topic of the help center
    // (printers), or a visitor's own word for a topic it has.
    return df > 0 ? idf(total, df) : UNKNOWN_WEIGHT * idf(total, 1);
  });
  const whole = weight.reduce((a, b) => a + b, 0);
  const scored = perResult
    .map(({ result, credit }) => {
      let covered = 0;
      for (const [g, c] of credit) covered += (weight[g] ?? 0) * c;
      const coverage = whole > 0 ? covered / whole : 0;
      return { result, coverage, score: result.score * coverage };
    })
    .filter((s) => s.coverage >= MIN_COVERAGE)
    .sort((a, b) => b.score - a.score);
  const best = scored[0]?.score ?? 0;
  return scored
    .filter((s) => s.score >= best * MIN_SHARE_OF_BEST)
    .slice(0, MAX_HITS)
    .map(({ result, score }) => ({
      entry: lang.entries[result.id as number] as Entry,
      score,
      marked: new Set(result.terms),
    }));
}

/**
 * A passage of the article's text around the most matched words, as HTML: the text escaped, the matched words in
 * <mark>. The passage starts at a word and ends with an ellipsis when cut.
 */
export function snippet(analyzer: Analyzer, plain: string, marked: Set<string>): string {
  const words = analyzer.words(plain);
  const hits = words.filter((w) => w.stem && marked.has(w.stem));
  let start = 0;
  if (hits.length > 0) {
    // The window holding most hits; it opens a few words before its first hit.
    let bestCount = 0;
    let bestFirst = 0;
    for (let i = 0, j = 0; i < hits.length; i++) {
      while (j < hits.length && (hits[j] as (typeof hits)[number]).end - (hits[i] as (typeof hits)[number]).start <= SNIPPET_CHARS) j++;
      if (j - i > bestCount) {
        bestCount = j - i;
        bestFirst = i;
      }
    }
    const first = hits[bestFirst] as (typeof hits)[number];
    const lead = words.filter((w) => w.start < first.start && first.start - w.start <= 40)[0];
    start = lead?.start ?? first.start;
    const lineStart = plain.lastIndexOf('\n', first.start);
    if (lineStart >= start) start = lineStart + 1;
  }
  let end = Math.min(plain.length, start + SNIPPET_CHARS);
  if (end < plain.length) {
    const lastWord = words.filter((w) => w.end <= end && w.start >= start).at(-1);
    if (lastWord) end = lastWord.end;
  }
  let html = start > 0 ? '… ' : '';
  let at = start;
  for (const w of hits) {
    if (w.start < start || w.end > end) continue;
    html += `${escapeHtml(plain.slice(at, w.start))}<mark>${escapeHtml(plain.slice(w.start, w.end))}</mark>`;
    at = w.end;
  }
  html += escapeHtml(plain.slice(at, end));
  if (end < plain.length) html += ' …';
  return html.replace(/\s+/g, ' ').trim();
}
