import { z } from 'zod';
import { IMPORT_FORMATS, IMPORT_LIMITS } from '../../commands/articles';
import { AnswerSynonymsInputSchema, ARTICLE_LIMITS, ArticleInputSchema } from '../../shared/articles';
import { WIDGET_LOCALES } from '../../shared/widget-texts';

/** POST /chat_endpoints/{id}/articles and PUT …/articles/{articleId}: the whole article. */
export const SaveArticleSchema = ArticleInputSchema;

/** GET /chat_endpoints/{id}/articles: words the title or body contains, and a language. */
export const ArticlesQuerySchema = z.object({
  q: z.string('q: Words to look for.').max(ARTICLE_LIMITS.queryChars, `q: At most ${ARTICLE_LIMITS.queryChars} characters.`).optional(),
  language: z.enum(WIDGET_LOCALES, { error: `language: One of ${WIDGET_LOCALES.join(', ')}.` }).optional(),
});

/** POST /chat_endpoints/{id}/articles/preview: the Markdown to render. */
export const ArticlePreviewSchema = z.object({
  body: z.string({ error: 'body: Required.' }).max(ARTICLE_LIMITS.bodyChars, `body: At most ${ARTICLE_LIMITS.bodyChars} characters.`),
});

/** POST /chat_endpoints/{id}/articles/import: a file's text, read as CSV or as a Zendesk export. */
export const ImportArticlesSchema = z.object({
  format: z.enum(IMPORT_FORMATS, { error: 'format: csv or zendesk.' }),
  content: z
    .string({ error: 'content: The text of the file.' })
    .max(IMPORT_LIMITS.contentChars, `content: The file is larger than ${IMPORT_LIMITS.contentChars / 1_000_000} MB.`),
  dryRun: z.boolean({ error: 'dryRun: Must be true or false.' }).default(false),
});

/** PUT /chat_endpoints/{id}/answer_synonyms */
export const SaveSynonymsSchema = AnswerSynonymsInputSchema;
