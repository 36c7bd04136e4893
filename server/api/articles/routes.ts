/**
 * A widget's help-center articles under /v1/chat_endpoints/{id}/articles (every plan; the plan limits how many),
 * the Markdown preview the console's editor shows, imports, and the search's synonyms. Anyone of the account may
 * edit them, as saved replies. The widget's ownership is checked first, then the input.
 */
import { type Request, type Response, Router } from 'express';
import {
  answerSynonyms,
  articleLanguages,
  articleLimit,
  createArticle,
  deleteArticle,
  findArticle,
  type ImportPreview,
  importArticles,
  listArticles,
  saveAnswerSynonyms,
  updateArticle,
} from '../../commands/articles';
import { authOf, requireAuth } from '../../http/auth';
import { articleHtml } from '../../ownerText';
import type { ArticleView } from '../../shared/articles';
import { parse } from '../../validation';
import { ownChatEndpoint } from '../chat-endpoints/access';
import { presentArticle } from '../presenters/article';
import type { ApiDeps } from '../users/routes';
import { ArticlePreviewSchema, ArticlesQuerySchema, ImportArticlesSchema, SaveArticleSchema, SaveSynonymsSchema } from './schema';

/** GET …/articles: the matching articles, the widget's count and languages, and the plan's limit (0: unlimited). */
export type ArticleListView = { articles: ArticleView[]; total: number; languages: string[]; limit: number };

export function articlesRouter(deps: ApiDeps): Router {
  const { config, models } = deps;
  const router = Router();
  const auth = requireAuth(models, config.jwtSecret);
  const widget = (req: Request, res: Response) => ownChatEndpoint(models, res, String(req.params.id));

  router.get('/chat_endpoints/:id/articles', auth, async (req, res: Response<ArticleListView>) => {
    const ce = await widget(req, res);
    const query = parse(ArticlesQuerySchema, req.query);
    const [articles, total, languages, { limit }] = await Promise.all([
      listArticles(models, ce, query),
      models.Article.countDocuments({ ceId: ce._id }),
      articleLanguages(models, ce),
      articleLimit(models, authOf(res).user.accountId),
    ]);
    res.json({ articles: articles.map(presentArticle), total, languages, limit });
  });

  router.post('/chat_endpoints/:id/articles', auth, async (req, res: Response<ArticleView>) => {
    const ce = await widget(req, res);
    const body = parse(SaveArticleSchema, req.body);
    res.status(201).json(presentArticle(await createArticle(deps, ce, body)));
  });

  router.post('/chat_endpoints/:id/articles/preview', auth, async (req, res: Response<{ html: string }>) => {
    await widget(req, res);
    const body = parse(ArticlePreviewSchema, req.body);
    res.json({ html: articleHtml(body.body) });
  });

  router.post('/chat_endpoints/:id/articles/import', auth, async (req, res: Response<ImportPreview>) => {
    const ce = await widget(req, res);
    const body = parse(ImportArticlesSchema, req.body);
    const preview = await importArticles(deps, ce, body);
    res.status(body.dryRun ? 200 : 201).json(preview);
  });

  router.get('/chat_endpoints/:id/articles/:articleId', auth, async (req, res: Response<ArticleView>) => {
    const ce = await widget(req, res);
    res.json(presentArticle(await findArticle(models, ce, String(req.params.articleId))));
  });

  router.put('/chat_endpoints/:id/articles/:articleId', auth, async (req, res: Response<ArticleView>) => {
    const ce = await widget(req, res);
    const body = parse(SaveArticleSchema, req.body);
    res.json(presentArticle(await updateArticle(deps, ce, String(req.params.articleId), body)));
  });

  router.delete('/chat_endpoints/:id/articles/:articleId', auth, async (req, res) => {
    const ce = await widget(req, res);
    await deleteArticle(deps, ce, String(req.params.articleId));
    res.json({});
  });

  router.get('/chat_endpoints/:id/answer_synonyms', auth, async (req, res: Response<{ groups: string[] }>) => {
    const ce = await widget(req, res);
    res.json({ groups: await answerSynonyms(models, ce) });
  });

  router.put('/chat_endpoints/:id/answer_synonyms', auth, async (req, res: Response<{ groups: string[] }>) => {
    const ce = await widget(req, res);
    const body = parse(SaveSynonymsSchema, req.body);
    res.json({ groups: await saveAnswerSynonyms(deps, ce, body.groups) });
  });

  return router;
}
