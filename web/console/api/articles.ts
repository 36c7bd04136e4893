/** Typed calls of the Answers tab: a widget's help-center articles, their preview, imports and synonyms. */
import type { ArticleInput, ArticleView } from '../../../server/shared/articles';
import { apiRequest } from './client';

const articles = (ceId: string) => `/chat_endpoints/${encodeURIComponent(ceId)}/articles`;

export type Article = ArticleView;
/** The list: the articles matching the filter, the widget's count and languages, the plan's limit (0: unlimited). */
export type ArticleList = { articles: Article[]; total: number; languages: string[]; limit: number };
export type ImportPreview = {
  articles: { title: string; language: string; slug: string; published: boolean; bodyPreview: string }[];
  errors: { row: number; message: string }[];
};

export function listArticles(ceId: string, filter: { q?: string; language?: string } = {}): Promise<ArticleList> {
  const query = new URLSearchParams();
  if (filter.q) query.set('q', filter.q);
  if (filter.language) query.set('language', filter.language);
  const qs = query.toString();
  return apiRequest('GET', `${articles(ceId)}${qs ? `?${qs}` : ''}`);
}

export function getArticle(ceId: string, id: string): Promise<Article> {
  return apiRequest('GET', `${articles(ceId)}/${encodeURIComponent(id)}`);
}

/** Creates an article, or replaces the one whose id is given. */
export function saveArticle(ceId: string, id: string | null, article: Partial<ArticleInput>): Promise<Article> {
  return id
    ? apiRequest('PUT', `${articles(ceId)}/${encodeURIComponent(id)}`, { body: article })
    : apiRequest('POST', articles(ceId), { body: article });
}

export function deleteArticle(ceId: string, id: string): Promise<void> {
  return apiRequest('DELETE', `${articles(ceId)}/${encodeURIComponent(id)}`);
}

/** The body as the server renders it everywhere (sanitised HTML). */
export async function previewArticle(ceId: string, body: string): Promise<string> {
  return (await apiRequest<{ html: string }>('POST', `${articles(ceId)}/preview`, { body: { body } })).html;
}

export function importArticles(
  ceId: string,
  file: { format: 'csv' | 'zendesk'; content: string; dryRun: boolean },
): Promise<ImportPreview> {
  return apiRequest('POST', `${articles(ceId)}/import`, { body: file });
}

export async function getSynonyms(ceId: string): Promise<string[]> {
  return (await apiRequest<{ groups: string[] }>('GET', `/chat_endpoints/${encodeURIComponent(ceId)}/answer_synonyms`)).groups;
}

export async function saveSynonyms(ceId: string, groups: string[]): Promise<string[]> {
  return (
    await apiRequest<{ groups: string[] }>('PUT', `/chat_endpoints/${encodeURIComponent(ceId)}/answer_synonyms`, { body: { groups } })
  ).groups;
}
