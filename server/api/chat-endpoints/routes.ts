/**
 * Widget setup under /v1/chat_endpoints: new widgets, Slack rooms and channels, connect, change and
 * rename channel, delete, the Slack authorisation links and the permissions page data.
 */
import { type Request, type Response, Router } from 'express';
import { deleteWidget } from '../../commands/deleteWidget';
import { assertBelowChannelLimit, newWidget, newWidgetForTeam } from '../../commands/newWidget';
import { changeChannel, connectChannel, createSlackChannel, listRooms, renameChannel } from '../../commands/slackChannels';
import { upgradeScopes, widgetScopeStatus } from '../../commands/slackPermissions';
import { ValidationError } from '../../errors';
import { authOf, requireAuth } from '../../http/auth';
import { parse } from '../../http/validate';
import type { ChatEndpointDocument } from '../../models/ChatEndpoint';
import type { ChatEndpointView, SlackRoom } from '../../shared/types';
import { slackAuthorizeUrl } from '../../slack/oauth';
import { ensureBrowserId } from '../../slack/oauthState';
import { INSTALL_BOT_SCOPES, INSTALL_USER_SCOPES, type ScopeRef } from '../../slack/scopes';
import { channelCreatorClient, NOT_INSTALLED, teamBotClient } from '../../slack/teamClients';
import { presentChatEndpoint } from '../presenters/chatEndpoint';
import { loadCurrentUser } from '../users/currentUser';
import type { ApiDeps } from '../users/routes';
import { ownChatEndpoint } from './access';
import { ConnectChannelSchema, CreateChannelSchema, RenameChannelSchema, SlackAuthorizeQuerySchema } from './schema';

/** GET /chat_endpoints/{id}/permissions */
export type PermissionsView = {
  step: number;
  mainUserSet: boolean;
  oauthV1: boolean;
  scopes: (ScopeRef & { granted: boolean })[];
  missing: ScopeRef[];
  allGood: boolean;
  upgradeUrl: string;
  selective: (ScopeRef & { url: string })[];
};

export function chatEndpointsRouter(deps: ApiDeps): Router {
  const { config, models } = deps;
  const router = Router();
  const auth = requireAuth(models, config.jwtSecret);
  const id = (req: Request) => String(req.params.id);
  const secureCookies = config.publicUrl.startsWith('https:');

  const botClientFor = (ce: ChatEndpointDocument, failure?: string) => teamBotClient(models, config.slack.apiUrl, ce, failure);

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
    await deleteWidget(models, await ownChatEndpoint(models, res, id(req)));
    res.json({});
  });

  router.get('/chat_endpoints/:id/rooms', auth, async (req, res: Response<SlackRoom[]>) => {
    const ce = await ownChatEndpoint(models, res, id(req));
    const client = await botClientFor(ce, 'Cannot fetch Slack channels');
    res.json(await listRooms(models, ce, client));
  });

  router.post('/chat_endpoints/:id/channels', auth, async (req, res: Response<{ Id: string; Name: string }>) => {
    const ce = await ownChatEndpoint(models, res, id(req));
    const { channelName } = parse(CreateChannelSchema, req.body);
    const room = await createSlackChannel(await channelCreatorClient(models, config.slack.apiUrl, ce), channelName);
    res.json({ Id: room.Id, Name: room.Name });
  });

  router.put('/chat_endpoints/:id/connect_ce', auth, async (req, res) => {
    const ce = await ownChatEndpoint(models, res, id(req));
    const { RoomId } = parse(ConnectChannelSchema, req.body);
    await connectChannel(models, ce, await botClientFor(ce), RoomId);
    res.json(await loadCurrentUser(models, authOf(res).user));
  });

  router.put('/chat_endpoints/:id/change-channel', auth, async (req, res: Response<ChatEndpointView>) => {
    const ce = await ownChatEndpoint(models, res, id(req));
    res.json(presentChatEndpoint(await changeChannel(ce)));
  });

  router.put('/chat_endpoints/:id/rename-channel', auth, async (req, res: Response<ChatEndpointView>) => {
    const ce = await ownChatEndpoint(models, res, id(req));
    const { roomName } = parse(RenameChannelSchema, req.body);
    res.json(presentChatEndpoint(await renameChannel(ce, await botClientFor(ce), roomName)));
  });

  router.get('/chat_endpoints/:id/slack_authorize', auth, async (req, res: Response<{ url: string }>) => {
    const ce = await ownChatEndpoint(models, res, id(req));
    const query = parse(SlackAuthorizeQuerySchema, req.query);
    if (query.purpose !== 'install' && !ce.slackTeamId) throw new ValidationError(NOT_INSTALLED, 'not_installed');
    let bot: readonly string[] = INSTALL_BOT_SCOPES;
    let user: readonly string[] = INSTALL_USER_SCOPES;
    if (query.purpose === 'upgrade') {
      ({ bot, user } = upgradeScopes(await widgetScopeStatus(models, ce)));
    }
    if (query.bot || query.user) {
      bot = query.bot ?? [];
      user = query.user ?? [];
    }
    if (bot.length === 0 && user.length === 0) throw new ValidationError('Ask for at least one scope', 'no_scopes');
    const url = await slackAuthorizeUrl(deps, {
      purpose: query.purpose,
      browserId: ensureBrowserId(req, res, secureCookies),
      uid: authOf(res).user.id,
      ceId: ce.id,
      botScopes: bot,
      userScopes: user,
      team: ce.slackTeamId || undefined,
    });
    res.json({ url });
  });

  router.get('/chat_endpoints/:id/permissions', auth, async (req, res: Response<PermissionsView>) => {
    const ce = await ownChatEndpoint(models, res, id(req));
    const status = await widgetScopeStatus(models, ce);
    const uid = authOf(res).user.id;
    const browserId = ensureBrowserId(req, res, secureCookies);
    const link = (bot: string[], user: string[]) =>
      slackAuthorizeUrl(deps, {
        purpose: 'upgrade',
        browserId,
        uid,
        ceId: ce.id,
        botScopes: bot,
        userScopes: user,
        team: ce.slackTeamId || undefined,
      });
    const wanted = upgradeScopes(status);
    const canAuthorize = ce.slackTeamId !== '';
    const selective =
      canAuthorize && status.missing.length > 1
        ? await Promise.all(
            status.missing.map(async (s) => ({
              ...s,
              url: await link(s.type === 'bot' ? [s.scope] : [], s.type === 'user' ? [s.scope] : []),
            })),
          )
        : [];
    res.json({
      step: ce.Step,
      mainUserSet: ce.slackMainUser !== '',
      oauthV1: ce.OauthV1,
      ...status,
      upgradeUrl: canAuthorize ? await link(wanted.bot, wanted.user) : '',
      selective,
    });
  });

  return router;
}
