/**
 * Bots and users added to a widget's new conversations, under /v1/chat_endpoints/{id} (plan feature bots):
 * GET users (the Slack workspace's members; 400 with Code missing_scope without users:read), GET bot_users,
 * POST bot and DELETE bot.
 */
import { type Request, type Response, Router } from 'express';
import { requirePlanFeature } from '../../commands/planFeature';
import { authOf, requireAuth } from '../../http/auth';
import { type Validated, validate } from '../../http/validate';
import type { BotUserView, SlackUserView } from '../../shared/bots';
import { addBotUser, listBotUsers, listSlackUsers, removeBotUser } from '../../slack/botUsers';
import { teamBotClient } from '../../slack/teamClients';
import { ownChatEndpoint } from '../chat-endpoints/access';
import type { ApiDeps } from '../users/routes';
import { AddBotBodySchema, RemoveBotBodySchema } from './schema';

export function botsRouter(deps: ApiDeps): Router {
  const { config, models } = deps;
  const router = Router();
  const auth = requireAuth(models, config.jwtSecret);
  const slackApi = { url: config.slack.apiUrl, fetch: deps.slackFetch };

  const widgetWithFeature = async (req: Request, res: Response) => {
    const ce = await ownChatEndpoint(models, res, String(req.params.id));
    await requirePlanFeature(models, authOf(res).user.accountId, 'bots');
    return ce;
  };

  router.get('/chat_endpoints/:id/users', auth, async (req, res: Response<SlackUserView[]>) => {
    const ce = await widgetWithFeature(req, res);
    res.json(await listSlackUsers(models, ce, await teamBotClient(models, slackApi, ce)));
  });

  router.get('/chat_endpoints/:id/bot_users', auth, async (req, res: Response<BotUserView[]>) => {
    const ce = await widgetWithFeature(req, res);
    res.json(await listBotUsers(models, ce));
  });

  router.post(
    '/chat_endpoints/:id/bot',
    auth,
    validate(AddBotBodySchema),
    async (req: Validated<typeof AddBotBodySchema>, res: Response<BotUserView>) => {
      const ce = await widgetWithFeature(req, res);
      res.json(await addBotUser(models, ce, await teamBotClient(models, slackApi, ce), req.body));
    },
  );

  router.delete('/chat_endpoints/:id/bot', auth, validate(RemoveBotBodySchema), async (req: Validated<typeof RemoveBotBodySchema>, res) => {
    const ce = await widgetWithFeature(req, res);
    await removeBotUser(models, ce, req.body.ID);
    res.json({});
  });

  return router;
}
