/**
 * Widget setup under /v1/chat_endpoints: new widgets, Slack rooms and channels, connect, change and
 * rename channel, delete, the Slack authorisation links and the permissions page data.
 */
import { type Request, type Response, Router } from 'express';
import { deleteWidget } from '../../commands/deleteWidget';
import { assertBelowChannelLimit, newWidget, newWidgetForTeam } from '../../commands/newWidget';
import { scopesToAuthorize, widgetPermissions } from '../../commands/widgetPermissions';
import { ValidationError } from '../../errors';
import { authOf, requireAuth } from '../../http/auth';
import { type Validated, validate } from '../../http/validate';
import type { ChatEndpointDocument } from '../../models/ChatEndpoint';
import { INSTALL_BOT_SCOPES, INSTALL_USER_SCOPES } from '../../shared/slack-scopes';
import type { ChatEndpointView, CurrentUser, PermissionsView, SlackRoom } from '../../shared/types';
import { slackAuthorizeUrl } from '../../slack/oauth';
import { ensureBrowserId } from '../../slack/oauthState';
import { changeChannel, connectChannel, createSlackChannel, listRooms, renameChannel } from '../../slack/slackChannels';
import { channelCreatorClient, NOT_INSTALLED, teamBotClient } from '../../slack/teamClients';
import { presentChatEndpoint } from '../presenters/chatEndpoint';
import { loadCurrentUser } from '../users/currentUser';
import type { ApiDeps } from '../users/routes';
import { ownChatEndpoint } from './access';
import { ConnectChannelSchema, CreateChannelSchema, RenameChannelSchema, SlackAuthorizeQuerySchema } from './schema';

export function chatEndpointsRouter(deps: ApiDeps): Router {
  const { config, models } = deps;
  const router = Router();
  const auth = requireAuth(models, config.jwtSecret);
  const id = (req: Request) => String(req.params.id);
  const secureCookies = config.publicUrl.startsWith('https:');
  const slackApi = { url: config.slack.apiUrl, fetch: deps.slackFetch };

  const botClientFor = (ce: ChatEndpointDocument, failure?: string) => teamBotClient(models, slackApi, ce, failure);

  router.post('/chat_endpoints/new', auth, async (_req, res: Response<{ Id: string }>) => {
    const ce = await newWidget(models, authOf(res).user);
    res.json({ Id: ce.id });
  });

  // Before /chat_endpoints/:id/…: "new" is not a widget id. The widget is created when Slack says yes.
  router.get('/chat_endpoints/new/slack_authorize', auth, async (req, res: Response<{ url: string }>) => {
    const { user } = authOf(res);
    await assertBelowChannelLimit(models, user);
    const url = await slackAuthorizeUrl(deps, {
      purpose: 'new_team',
      browserId: ensureBrowserId(req, res, secureCookies),
      uid: user.id,
      botScopes: INSTALL_BOT_SCOPES,
      userScopes: INSTALL_USER_SCOPES,
    });
    res.json({ url });
  });

  router.post('/chat_endpoints/new/:existingId', auth, async (req, res: Response<{ Id: string }>) => {
    const existing = await ownChatEndpoint(models, res, String(req.params.existingId));
    const ce = await newWidgetForTeam(models, authOf(res).user, existing);
    res.json({ Id: ce.id });
  });

  router.delete('/chat_endpoints/:id', auth, async (req, res) => {
    await deleteWidget(deps, await ownChatEndpoint(models, res, id(req)));
    res.json({});
  });

  router.get('/chat_endpoints/:id/rooms', auth, async (req, res: Response<SlackRoom[]>) => {
    const ce = await ownChatEndpoint(models, res, id(req));
    const client = await botClientFor(ce, 'Cannot fetch Slack channels');
    res.json(await listRooms(models, ce, client));
  });

  router.post(
    '/chat_endpoints/:id/channels',
    auth,
    validate(CreateChannelSchema),
    async (req: Validated<typeof CreateChannelSchema>, res: Response<{ Id: string; Name: string }>) => {
      const ce = await ownChatEndpoint(models, res, id(req));
      const room = await createSlackChannel(await channelCreatorClient(models, slackApi, ce), req.body.channelName);
      res.json({ Id: room.Id, Name: room.Name });
    },
  );

  router.put(
    '/chat_endpoints/:id/connect_ce',
    auth,
    validate(ConnectChannelSchema),
    async (req: Validated<typeof ConnectChannelSchema>, res: Response<CurrentUser>) => {
      const ce = await ownChatEndpoint(models, res, id(req));
      await connectChannel(models, ce, await botClientFor(ce), req.body.RoomId);
      // Set up now: presence decides whether visitors can chat, and the answer shows it.
      await deps.presence.recheck(ce.id).catch(() => false);
      res.json(await loadCurrentUser(models, authOf(res).user));
    },
  );

  router.put('/chat_endpoints/:id/change-channel', auth, async (req, res: Response<ChatEndpointView>) => {
    const ce = await ownChatEndpoint(models, res, id(req));
    res.json(presentChatEndpoint(await changeChannel(ce)));
  });

  router.put(
    '/chat_endpoints/:id/rename-channel',
    auth,
    validate(RenameChannelSchema),
    async (req: Validated<typeof RenameChannelSchema>, res: Response<ChatEndpointView>) => {
      const ce = await ownChatEndpoint(models, res, id(req));
      res.json(presentChatEndpoint(await renameChannel(ce, await botClientFor(ce), req.body.roomName)));
    },
  );

  const slackAuthorize = { query: SlackAuthorizeQuerySchema };
  router.get(
    '/chat_endpoints/:id/slack_authorize',
    auth,
    validate(slackAuthorize),
    async (req: Validated<typeof slackAuthorize>, res: Response<{ url: string }>) => {
      const ce = await ownChatEndpoint(models, res, id(req));
      if (req.query.purpose !== 'install' && !ce.slackTeamId) throw new ValidationError(NOT_INSTALLED, 'not_installed');
      const scopes = await scopesToAuthorize(models, ce, req.query, { bot: INSTALL_BOT_SCOPES, user: INSTALL_USER_SCOPES });
      const url = await slackAuthorizeUrl(deps, {
        purpose: req.query.purpose,
        browserId: ensureBrowserId(req, res, secureCookies),
        uid: authOf(res).user.id,
        ceId: ce.id,
        botScopes: scopes.bot,
        userScopes: scopes.user,
        team: ce.slackTeamId || undefined,
      });
      res.json({ url });
    },
  );

  router.get('/chat_endpoints/:id/permissions', auth, async (req, res: Response<PermissionsView>) => {
    const ce = await ownChatEndpoint(models, res, id(req));
    const uid = authOf(res).user.id;
    const browserId = ensureBrowserId(req, res, secureCookies);
    res.json(
      await widgetPermissions(models, ce, (botScopes, userScopes) =>
        slackAuthorizeUrl(deps, {
          purpose: 'upgrade',
          browserId,
          uid,
          ceId: ce.id,
          botScopes,
          userScopes,
          team: ce.slackTeamId || undefined,
        }),
      ),
    );
  });

  return router;
}
