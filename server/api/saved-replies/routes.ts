/** Saved replies of a widget under /v1/chat_endpoints/{id}/saved_replies (plan feature savedReplies). */
import { type Request, type Response, Router } from 'express';
import { requirePlanFeature } from '../../commands/planFeature';
import { deleteSavedReply, listSavedReplies, presentSavedReply, type SavedReplyView, saveSavedReply } from '../../commands/savedReplies';
import { authOf, requireAuth } from '../../http/auth';
import { type Validated, validate } from '../../http/validate';
import { ownChatEndpoint } from '../chat-endpoints/access';
import type { ApiDeps } from '../users/routes';
import { SaveSavedReplySchema } from './schema';

export function savedRepliesRouter(deps: ApiDeps): Router {
  const { config, models } = deps;
  const router = Router();
  const auth = requireAuth(models, config.jwtSecret);

  const widgetWithFeature = async (req: Request, res: Response) => {
    const ce = await ownChatEndpoint(models, res, String(req.params.id));
    await requirePlanFeature(models, authOf(res).user.accountId, 'savedReplies');
    return ce;
  };

  router.get('/chat_endpoints/:id/saved_replies', auth, async (req, res: Response<{ replies: SavedReplyView[] }>) => {
    const ce = await widgetWithFeature(req, res);
    res.json({ replies: await listSavedReplies(models, ce) });
  });

  router.post(
    '/chat_endpoints/:id/saved_replies',
    auth,
    validate(SaveSavedReplySchema),
    async (req: Validated<typeof SaveSavedReplySchema>, res: Response<SavedReplyView>) => {
      const ce = await widgetWithFeature(req, res);
      res.json(presentSavedReply(await saveSavedReply(deps, ce, req.body)));
    },
  );

  router.delete('/chat_endpoints/:id/saved_replies/:replyId', auth, async (req, res) => {
    const ce = await widgetWithFeature(req, res);
    await deleteSavedReply(deps, ce, String(req.params.replyId));
    res.json({});
  });

  return router;
}
