import type { Article } from '../../models/Article';
import type { ArticleView } from '../../shared/articles';

/** An article as the console's API answers it: exactly these fields. */
export function presentArticle(article: Article & { _id: unknown }): ArticleView {
  const id = String(article._id);
  return {
    Id: id,
    id,
    chatEndpointId: String(article.ceId),
    title: article.title,
    body: article.body,
    language: article.language,
    slug: article.slug,
    published: article.published,
    tag: article.tag ?? '',
    updatedAt: article.updatedAt.toISOString(),
    createdAt: article.createdAt.toISOString(),
  };
}
