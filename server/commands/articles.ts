/**
 * A widget's help-center articles: create, update, delete, list and import (a CSV or a Zendesk Help Center
 * export). Slugs are made from the title when not given and kept unique per widget and language with a suffix;
 * a slug given twice is refused. The plan's limit (ARTICLES_PER_WIDGET) holds for every write that adds
 * articles, an import included: an import creates all of its articles or none. After every write the search is
 * told (`articleSearch.changed`).
 */
import { match } from '@formatjs/intl-localematcher';
import { parse as parseCsv } from 'csv-parse/sync';
import mongoose, { type QueryFilter, type Types } from 'mongoose';
import TurndownService from 'turndown';
import { z } from 'zod';
import type { ArticleSearch } from '../answers/search';
import { NotFoundError, PaymentRequiredError, ValidationError } from '../errors';
import type { Models } from '../models';
import type { Article, ArticleDocument } from '../models/Article';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import { articlePlain } from '../ownerText';
import { ARTICLE_LIMITS, type ArticleInput, articleLimitMessage, articlesPerWidget, slugify } from '../shared/articles';
import { ERROR_CODES } from '../shared/constants';
import { WIDGET_LOCALES } from '../shared/widget-texts';
import { effectivePlanOf } from './planFeature';

/** What an article write needs: the database, and the search to tell. */
export type ArticleDeps = { models: Models; articleSearch: Pick<ArticleSearch, 'changed'> };

export const SLUG_TAKEN = 'slug: Another article of this widget in this language already has that slug.';
const ARTICLE_NOT_FOUND = 'Article not found';

type Widget = Pick<ChatEndpointDocument, '_id' | 'accountId'>;
/** A widget with its list of tags, for writes that name one (an article's tag). */
type TaggedWidget = Widget & { tags?: readonly string[] };

/** The article's tag must be one of the widget's (Behavior → Tags); '' is none. */
function checkTag(ce: TaggedWidget, tag: string): void {
  if (tag && !(ce.tags ?? []).includes(tag)) {
    throw new ValidationError(`tag: “${tag}” is not one of this widget's tags: add it in Settings → Behavior → Tags first.`);
  }
}

/** A filter of the list: words the title or the body contains (any case), and a language. */
export type ArticleListQuery = { q?: string; language?: string };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The widget's articles, last updated first. */
export async function listArticles(models: Models, ce: Widget, query: ArticleListQuery = {}): Promise<ArticleDocument[]> {
  const filter: QueryFilter<Article> = { ceId: ce._id };
  if (query.language) filter.language = query.language;
  const q = query.q?.trim();
  if (q) {
    const contains = new RegExp(escapeRegExp(q), 'i');
    filter.$or = [{ title: contains }, { body: contains }];
  }
  return models.Article.find(filter).sort({ updatedAt: -1, _id: -1 });
}

/** The languages the widget has articles in, in the widget's order of languages. */
export async function articleLanguages(models: Models, ce: Widget): Promise<string[]> {
  const used = new Set((await models.Article.distinct('language', { ceId: ce._id })).map(String));
  return WIDGET_LOCALES.filter((l) => used.has(l));
}

export async function findArticle(models: Models, ce: Widget, articleId: string): Promise<ArticleDocument> {
  const found = /^[0-9a-f]{24}$/i.test(articleId) ? await models.Article.findOne({ _id: articleId, ceId: ce._id }) : null;
  if (!found) throw new NotFoundError(ARTICLE_NOT_FOUND);
  return found;
}

/** The most articles the widget may hold under the account's plan now (0: unlimited), and the refusal's words. */
export async function articleLimit(models: Models, accountId: Types.ObjectId): Promise<{ limit: number; message: string }> {
  const plan = await effectivePlanOf(models, accountId);
  if (!plan) return { limit: 0, message: '' };
  return { limit: articlesPerWidget(plan.stripeId), message: articleLimitMessage(plan) };
}

/** Throws 402 plan_limit when `adding` more articles would pass the plan's limit for the widget. */
async function assertRoomFor(models: Models, ce: Widget, adding: number): Promise<void> {
  const { limit, message } = await articleLimit(models, ce.accountId);
  if (limit === 0) return;
  const count = await models.Article.countDocuments({ ceId: ce._id });
  if (count + adding > limit) throw new PaymentRequiredError(message, ERROR_CODES.planLimit);
}

/** `base`, or `base-2`, `base-3` … : the first not in `taken`. */
function firstFree(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const slug = `${base.slice(0, ARTICLE_LIMITS.slugChars - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(slug)) return slug;
  }
}

async function takenSlugs(models: Models, ce: Widget, language: string, except?: Types.ObjectId): Promise<Set<string>> {
  const filter: QueryFilter<Article> = { ceId: ce._id, language };
  if (except) filter._id = { $ne: except };
  return new Set((await models.Article.find(filter, { slug: 1 }).lean()).map((a) => a.slug));
}

/** The given slug when free (else 400), or one made from the title, unique in the widget and language. */
async function slugFor(models: Models, ce: Widget, input: ArticleInput, except?: Types.ObjectId): Promise<string> {
  const taken = await takenSlugs(models, ce, input.language, except);
  if (input.slug) {
    if (taken.has(input.slug)) throw new ValidationError(SLUG_TAKEN);
    return input.slug;
  }
  return firstFree(slugify(input.title), taken);
}

const isDuplicateKey = (error: unknown) => (error as { code?: unknown }).code === 11000;

export async function createArticle(deps: ArticleDeps, ce: TaggedWidget, input: ArticleInput): Promise<ArticleDocument> {
  const { models } = deps;
  checkTag(ce, input.tag);
  await assertRoomFor(models, ce, 1);
  try {
    const slug = await slugFor(models, ce, input);
    return await models.Article.create({
      accountId: ce.accountId,
      ceId: ce._id,
      title: input.title,
      body: input.body,
      language: input.language,
      published: input.published,
      tag: input.tag,
      slug,
    });
  } catch (error) {
    // Two saves racing for one slug: the unique index decides.
    if (isDuplicateKey(error)) throw new ValidationError(SLUG_TAKEN);
    throw error;
  } finally {
    deps.articleSearch.changed(String(ce._id));
  }
}

/**
 * Replaces an article's fields. Without a slug it keeps its own (its public address stays), unless it moves to a
 * language where another article has that slug; then one is made from the title.
 */
export async function updateArticle(deps: ArticleDeps, ce: TaggedWidget, articleId: string, input: ArticleInput): Promise<ArticleDocument> {
  const { models } = deps;
  checkTag(ce, input.tag);
  const article = await findArticle(models, ce, articleId);
  try {
    let slug = input.slug ?? article.slug;
    if (input.slug || input.language !== article.language) {
      const taken = await takenSlugs(models, ce, input.language, article._id);
      if (input.slug && taken.has(input.slug)) throw new ValidationError(SLUG_TAKEN);
      if (!input.slug && taken.has(slug)) slug = firstFree(slugify(input.title), taken);
    }
    article.set({ title: input.title, body: input.body, language: input.language, published: input.published, tag: input.tag, slug });
    return await article.save();
  } catch (error) {
    if (isDuplicateKey(error)) throw new ValidationError(SLUG_TAKEN);
    throw error;
  } finally {
    deps.articleSearch.changed(String(ce._id));
  }
}

export async function deleteArticle(deps: ArticleDeps, ce: Widget, articleId: string): Promise<void> {
  const found = /^[0-9a-f]{24}$/i.test(articleId) ? await deps.models.Article.findOneAndDelete({ _id: articleId, ceId: ce._id }) : null;
  if (!found) throw new NotFoundError(ARTICLE_NOT_FOUND);
  deps.articleSearch.changed(String(ce._id));
}

// Import

export const IMPORT_FORMATS = ['csv', 'zendesk'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export const IMPORT_LIMITS = { contentChars: 5_000_000, articles: 1000, previewChars: 160 } as const;

export type ImportPreview = {
  articles: { title: string; language: string; slug: string; published: boolean; bodyPreview: string }[];
  errors: { row: number; message: string }[];
};

/** One article read from a file, before its checks: `row` is how the owner finds it in the file. */
type ImportRow = { row: number; title: string; body: string; locale: string; published: boolean };

/**
 * The file could not be read at all: one message, no rows. Not an AppError: it never leaves importArticles, which
 * answers it as the import's one row error.
 */
class UnreadableFile extends Error {}

/**
 * A language tag of a file ("en-us", "pt-BR", "fr", "zh-cn") as one of the widget's languages: the locale
 * matcher's best fit, as for visitors' browsers; '' when none fits (Traditional Chinese, Russian …).
 */
export function widgetLanguageOf(tag: string): string {
  const trimmed = tag.trim();
  if (trimmed === '') return '';
  const exact = WIDGET_LOCALES.find((l) => l.toLowerCase() === trimmed.toLowerCase());
  if (exact) return exact;
  try {
    const [canonical] = Intl.getCanonicalLocales(trimmed);
    return canonical ? match([canonical], [...WIDGET_LOCALES], '') : '';
  } catch {
    return '';
  }
}

/** CSV with a header row naming title, body and language (any order, any case); the header is row 1. */
function csvRows(content: string): ImportRow[] {
  let records: string[][];
  try {
    records = parseCsv(content, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: false }) as string[][];
  } catch (error) {
    throw new UnreadableFile(`The file is not a CSV Parley can read: ${(error as Error).message}`);
  }
  const [header, ...rows] = records;
  if (!header) throw new UnreadableFile('The file is empty: it needs a header row (title, body, language) and one row per article.');
  const names = header.map((h) => h.trim().toLowerCase());
  const column = (name: string) => names.indexOf(name);
  const [title, body, language] = [column('title'), column('body'), column('language')];
  if (title < 0 || body < 0) throw new UnreadableFile('The first row must name the columns: title, body and language.');
  return rows.map((cells, i) => ({
    row: i + 2,
    title: cells[title]?.trim() ?? '',
    body: cells[body] ?? '',
    locale: language < 0 ? '' : (cells[language] ?? ''),
    published: true,
  }));
}

/** The part of a Zendesk Help Center articles export Parley reads (GET /api/v2/help_center/articles.json). */
const ZendeskExportSchema = z.object({
  articles: z.array(
    z.object({
      title: z.string().nullish(),
      body: z.string().nullish(),
      locale: z.string().nullish(),
      draft: z.boolean().nullish(),
    }),
  ),
});

function zendeskRows(content: string): ImportRow[] {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    throw new UnreadableFile('The file is not JSON: choose the export of your Zendesk Help Center articles.');
  }
  // The API's page ({ articles: [...] }), or the list alone as some export tools save it.
  const parsed = ZendeskExportSchema.safeParse(Array.isArray(json) ? { articles: json } : json);
  if (!parsed.success)
    throw new UnreadableFile('The JSON has no list of articles: choose the export of your Zendesk Help Center articles.');
  return parsed.data.articles.map((a, i) => ({
    row: i + 1,
    title: a.title?.trim() ?? '',
    body: markdownOfHtml(a.body ?? ''),
    locale: a.locale ?? '',
    published: a.draft !== true,
  }));
}

/** Elements whose content is never an article's text. */
const DROPPED_ELEMENTS = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'form', 'button', 'select', 'textarea'];

/**
 * Imported HTML as Markdown (turndown). Scripts and the like go with their content; links other than http(s),
 * mailto and relative ones keep only their text. What remains is rendered through articleHtml like typed Markdown.
 */
export function markdownOfHtml(html: string): string {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(DROPPED_ELEMENTS as TurndownService.Filter);
  turndown.addRule('safeLinks', {
    filter: (node) => node.nodeName === 'A' && !/^(https?:|mailto:|\/|#)/i.test((node.getAttribute('href') ?? '').trim()),
    replacement: (content) => content,
  });
  turndown.addRule('safeImages', {
    filter: (node) => node.nodeName === 'IMG' && !/^https:/i.test((node.getAttribute('src') ?? '').trim()),
    replacement: () => '',
  });
  return turndown.turndown(html).trim();
}

const rowName = (format: ImportFormat, row: number) => `${format === 'csv' ? 'Row' : 'Article'} ${row}`;

function rowProblem(r: ImportRow, language: string, format: ImportFormat): string | null {
  if (r.title === '') return 'the title is empty.';
  if (r.title.length > ARTICLE_LIMITS.titleChars) return `the title is longer than ${ARTICLE_LIMITS.titleChars} characters.`;
  if (r.body.length > ARTICLE_LIMITS.bodyChars) return `the body is longer than ${ARTICLE_LIMITS.bodyChars} characters.`;
  if (language === '') {
    const field = format === 'csv' ? 'language' : 'locale';
    return r.locale.trim() === ''
      ? `the ${field} is empty (one of ${WIDGET_LOCALES.join(', ')}).`
      : `the ${field} "${r.locale.trim().slice(0, 35)}" is not one of the widget's languages (${WIDGET_LOCALES.join(', ')}).`;
  }
  return null;
}

type PlannedImport = ImportPreview & { create: Omit<Article, 'createdAt' | 'updatedAt'>[]; overLimit: string | null };

async function planImport(models: Models, ce: Widget, format: ImportFormat, content: string): Promise<PlannedImport> {
  let rows: ImportRow[];
  try {
    rows = format === 'csv' ? csvRows(content) : zendeskRows(content);
  } catch (error) {
    if (error instanceof UnreadableFile) return { articles: [], errors: [{ row: 0, message: error.message }], create: [], overLimit: null };
    throw error;
  }
  if (rows.length === 0) {
    return { articles: [], errors: [{ row: 0, message: 'The file has no articles.' }], create: [], overLimit: null };
  }
  if (rows.length > IMPORT_LIMITS.articles) {
    const message = `The file has ${rows.length} articles; import at most ${IMPORT_LIMITS.articles} at a time.`;
    return { articles: [], errors: [{ row: 0, message }], create: [], overLimit: null };
  }
  const existing = await models.Article.find({ ceId: ce._id }, { slug: 1, language: 1 }).lean();
  const taken = new Map<string, Set<string>>();
  const takenIn = (language: string) => taken.get(language) ?? taken.set(language, new Set()).get(language) ?? new Set<string>();
  for (const a of existing) takenIn(a.language).add(a.slug);
  const { limit, message } = await articleLimit(models, ce.accountId);

  const preview: PlannedImport = { articles: [], errors: [], create: [], overLimit: null };
  for (const r of rows) {
    const language = widgetLanguageOf(r.locale);
    const problem = rowProblem(r, language, format);
    if (problem) {
      preview.errors.push({ row: r.row, message: `${rowName(format, r.row)}: ${problem}` });
      continue;
    }
    if (limit !== 0 && existing.length + preview.create.length >= limit) {
      preview.overLimit ??= message;
      preview.errors.push({ row: r.row, message: `${rowName(format, r.row)}: over the plan's limit. ${message}` });
      continue;
    }
    const slugs = takenIn(language);
    const slug = firstFree(slugify(r.title), slugs);
    slugs.add(slug);
    const plain = articlePlain(r.body).replace(/\s+/g, ' ').trim();
    preview.articles.push({
      title: r.title,
      language,
      slug,
      published: r.published,
      bodyPreview: plain.length > IMPORT_LIMITS.previewChars ? `${plain.slice(0, IMPORT_LIMITS.previewChars - 1)}…` : plain,
    });
    preview.create.push({
      accountId: ce.accountId,
      ceId: ce._id,
      title: r.title,
      body: r.body,
      language,
      slug,
      published: r.published,
      tag: '',
    });
  }
  return preview;
}

/**
 * Reads a file of articles. A dry run answers what would be created and each row's problem, and creates nothing.
 * A real import creates every article or none: any problem answers 400 with all of them in words (402 when the
 * only problem is the plan's limit).
 */
export async function importArticles(
  deps: ArticleDeps,
  ce: Widget,
  input: { format: ImportFormat; content: string; dryRun: boolean },
): Promise<ImportPreview> {
  const planned = await planImport(deps.models, ce, input.format, input.content);
  const preview: ImportPreview = { articles: planned.articles, errors: planned.errors };
  if (input.dryRun) return preview;
  const rowErrors = planned.errors.filter((e) => !e.message.includes('over the plan'));
  if (rowErrors.length > 0) throw new ValidationError(rowErrors.map((e) => e.message).join(' '));
  if (planned.overLimit) throw new PaymentRequiredError(planned.overLimit, ERROR_CODES.planLimit);
  const ids = planned.create.map(() => new mongoose.Types.ObjectId());
  try {
    await deps.models.Article.insertMany(
      planned.create.map((a, i) => ({ ...a, _id: ids[i] })),
      { ordered: true },
    );
  } catch (error) {
    // All or nothing without a transaction (a single server has none): what landed before the failure is taken back.
    await deps.models.Article.deleteMany({ _id: { $in: ids } });
    if (isDuplicateKey(error)) throw new ValidationError('Another article was saved with one of these slugs meanwhile: import again.');
    throw error;
  } finally {
    deps.articleSearch.changed(String(ce._id));
  }
  return preview;
}

// Synonyms

export async function answerSynonyms(models: Models, ce: Widget): Promise<string[]> {
  return (await models.AnswerSynonyms.findOne({ ceId: ce._id }).lean())?.groups ?? [];
}

export async function saveAnswerSynonyms(deps: ArticleDeps, ce: Widget, groups: string[]): Promise<string[]> {
  const saved = await deps.models.AnswerSynonyms.findOneAndUpdate(
    { ceId: ce._id },
    { $set: { groups }, $setOnInsert: { accountId: ce.accountId } },
    { upsert: true, returnDocument: 'after' },
  ).lean();
  deps.articleSearch.changed(String(ce._id));
  return saved?.groups ?? groups;
}
