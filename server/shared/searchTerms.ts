/**
 * The words a chat is found by in the history search: each chat keeps the normalized words of its messages, and
 * every beginning of its visitor's name and e-mail address, in one indexed list (`searchTerms`), so a search is an
 * index lookup whatever the number of chats. Normalized: lower case, accents off, split on anything that is not a
 * letter or a digit ("Zoë-Ann <zoe.ann@example.com>" → zoe, ann, example, com).
 */

/** Longest word kept; a longer one (a token, a hash, a URL's path) is cut to it, the query's words too. */
export const SEARCH_TERM_MAX = 32;
/** Words a chat message adds at most: a pasted log does not grow its chat's list without end. */
export const SEARCH_TERMS_PER_MESSAGE = 200;
/** Shortest beginning of a name or e-mail word that finds it ("ve" finds Vera). */
export const SEARCH_PREFIX_MIN = 2;
/** Words a search takes (the rest of the query is ignored). */
export const SEARCH_QUERY_WORDS = 8;
/** Longest search query, in characters. */
export const SEARCH_QUERY_MAX = 200;

/** The normalized words of a text, each once, in order of appearance. */
export function searchWords(text: string, limit = Number.POSITIVE_INFINITY): string[] {
  const out = new Set<string>();
  const normalized = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  for (const match of normalized.matchAll(/[\p{L}\p{N}]+/gu)) {
    out.add(match[0].slice(0, SEARCH_TERM_MAX));
    if (out.size >= limit) break;
  }
  return [...out];
}

/** What a chat message adds to its chat's terms: its words. */
export function messageSearchTerms(text: string): string[] {
  return searchWords(text, SEARCH_TERMS_PER_MESSAGE);
}

/** What a visitor's name and e-mail add: every beginning of every word, from SEARCH_PREFIX_MIN letters on. */
export function visitorSearchTerms(visitor: { name?: string; email?: string }): string[] {
  const out = new Set<string>();
  for (const word of searchWords(`${visitor.name ?? ''} ${visitor.email ?? ''}`)) {
    for (let n = Math.min(SEARCH_PREFIX_MIN, word.length); n <= word.length; n++) out.add(word.slice(0, n));
  }
  return [...out];
}

/** The words of a search query; a chat matches when every one of them is among its terms. */
export function searchQueryTerms(query: string): string[] {
  return searchWords(query.slice(0, SEARCH_QUERY_MAX), SEARCH_QUERY_WORDS);
}
