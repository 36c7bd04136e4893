/**
 * Searching a widget's help center. The contract every part uses (widget search, auto-answers, Slack
 * suggestions, the public pages): published articles only, best first, in the visitor's language or, when the
 * widget has none in it, the help center's main language; an empty list when nothing is relevant enough.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import type { ArticleHit } from '../shared/articles';

/** A hit with what the callers beyond the widget need (Slack cards, auto-answers). */
export type ArticleSearchHit = ArticleHit & { language: string; slug: string };

/** The widget a search is about: its id and its public uuid (for the article's URL). */
export type SearchWidget = { _id: Types.ObjectId | string; Uuid: string };

export interface ArticleSearch {
  search(widget: SearchWidget, query: string, language: string, limit?: number): Promise<ArticleSearchHit[]>;
  /** An article of `ceId` was written in this process: the next search reads it (other processes within a second). */
  changed(ceId: string): void;
}

export type ArticleSearchDeps = {
  models: Pick<Models, 'Article'>;
  /** The public base URL of Parley (config.publicUrl), for each hit's link. */
  baseUrl: string;
};

const MAX_HITS = 5;

/**
 * The public page of an article. Translations of one article share its slug (the slug is unique per widget and
 * language), so the page's address names the language.
 */
export function articleUrl(baseUrl: string, widgetUuid: string, slug: string, language: string): string {
  return `${baseUrl.replace(/\/$/, '')}/help/${encodeURIComponent(widgetUuid)}/${encodeURIComponent(slug)}?lang=${encodeURIComponent(language)}`;
}

/**
 * A first, plain implementation (word overlap on title and body), kept only until the indexed search replaces
 * it behind the same interface.
 */
export function createArticleSearch(deps: ArticleSearchDeps): ArticleSearch {
  const words = (text: string) => text.toLowerCase().match(/\p{L}[\p{L}\p{N}]+/gu) ?? [];
  return {
    async search(widget, query, language, limit = MAX_HITS) {
      const asked = new Set(words(query));
      if (asked.size === 0) return [];
      const articles = await deps.models.Article.find({ ceId: widget._id, published: true }).lean();
      const inLanguage = articles.filter((a) => a.language === language);
      const pool = inLanguage.length > 0 ? inLanguage : articles;
      return pool
        .map((a) => {
          const title = new Set(words(a.title));
          const body = new Set(words(a.body));
          let score = 0;
          for (const w of asked) score += (title.has(w) ? 2 : 0) + (body.has(w) ? 1 : 0);
          return { a, score };
        })
        .filter((x) => x.score > 0)
        .sort((x, y) => y.score - x.score)
        .slice(0, Math.min(limit, MAX_HITS))
        .map(({ a, score }) => ({
          id: String(a._id),
          title: a.title,
          snippet: '',
          url: articleUrl(deps.baseUrl, widget.Uuid, a.slug, a.language),
          score,
          language: a.language,
          slug: a.slug,
        }));
    },
    changed() {},
  };
}
