/**
 * Slack OAuth v2, Parley's own routes (not Bolt's installer, whose one-flow model does not fit four
 * purposes bound to a Parley user and widget):
 *   GET /slack/oauth/signup?source=…  public; to Slack's authorize page for "Sign up with Slack"
 *   GET /slack/oauth_redirect         the one redirect URL of the manifest, for every purpose
 * Purposes: signup, install (a widget at step 1), new_team (a widget in another workspace, created on
 * consent), swap_user, upgrade.
 * The authorize URLs for the signed-in purposes are built by `slackAuthorizeUrl` (used by the API).
 */

import type { OauthV2AccessResponse } from '@slack/web-api';
import { type Request, type Response, Router } from 'express';
import { newWidget, PLAN_LIMIT_ERROR } from '../commands/newWidget';
import { createSession } from '../commands/sessions';
import {
  authorizerOf,
  completeInstall,
  completeSwapUser,
  completeUpgrade,
  type SlackAuthorizer,
  signUpWithSlack,
} from '../commands/slackAuthorization';
import { type GrantedInstallation, saveInstallation } from '../commands/slackInstallations';
import type { Config } from '../config';
import { PaymentRequiredError } from '../errors';
import type { Logger } from '../logger';
import type { Models } from '../models';
import type { RateLimiters } from '../rateLimits';
import type { PubSub } from '../relay/pubsub';
import { INSTALL_BOT_SCOPES, INSTALL_USER_SCOPES, splitScopes } from '../shared/slack-scopes';
import { slackClient } from './client';
import { browserIdOf, consumeOAuthState, createOAuthState, ensureBrowserId, type OAuthPurpose, type OAuthStatePayload } from './oauthState';
import { installationChanged, type SlackClients } from './slackClients';
import { isSlackCallError, slackErrorCode } from './slackErrors';

export type OAuthDeps = {
  config: Config;
  models: Models;
  logger: Logger;
  limiters: RateLimiters;
  /** Its cached clients are dropped when an installation changes; their fetch reaches Slack. */
  slack: SlackClients;
  /** Tells the other processes of an installation change. */
  relay: { pubsub: Pick<PubSub, 'signal'> };
};

export const OAUTH_REDIRECT_PATH = '/slack/oauth_redirect';

export function oauthRedirectUrl(config: Config): string {
  return `${config.publicUrl}${OAUTH_REDIRECT_PATH}`;
}

export type AuthorizeRequest = {
  purpose: OAuthPurpose;
  /** From ensureBrowserId: the callback is accepted from this browser only. */
  browserId: string;
  uid?: string;
  ceId?: string;
  source?: string;
  botScopes: readonly string[];
  userScopes: readonly string[];
  /** Pre-selects the workspace (swap and upgrade stay in the widget's team). */
  team?: string;
};

/** Slack's (or the sandbox's) authorize URL with a fresh single-use state. */
export async function slackAuthorizeUrl(deps: Pick<OAuthDeps, 'config' | 'models'>, req: AuthorizeRequest): Promise<string> {
  const state = await createOAuthState(deps.models, deps.config.jwtSecret, {
    purpose: req.purpose,
    bid: req.browserId,
    ...(req.uid ? { uid: req.uid } : {}),
    ...(req.ceId ? { ceId: req.ceId } : {}),
    ...(req.source ? { source: req.source } : {}),
  });
  const url = new URL(deps.config.slack.oauthUrl);
  url.searchParams.set('client_id', deps.config.slack.clientId);
  url.searchParams.set('scope', req.botScopes.join(','));
  url.searchParams.set('user_scope', req.userScopes.join(','));
  url.searchParams.set('redirect_uri', oauthRedirectUrl(deps.config));
  url.searchParams.set('state', state);
  if (req.team) url.searchParams.set('team', req.team);
  return url.toString();
}

/** Where the console shows the outcome of each purpose (with ?error=code on failure). */
function pageFor(payload: Pick<OAuthStatePayload, 'purpose' | 'ceId'>): string {
  switch (payload.purpose) {
    case 'signup':
      return '#/signup';
    case 'install':
      return `#/setup/${payload.ceId ?? ''}`;
    case 'new_team':
    case 'swap_user':
      return '#/';
    case 'upgrade':
      return `#/permissions/${payload.ceId ?? ''}`;
  }
}

const withError = (hash: string, code: string) => `/app/${hash}?error=${encodeURIComponent(code)}`;

const ERROR_CODE = /^[a-z_]{1,64}$/;

function refusedPage(res: Response, problem: string): void {
  const why =
    problem === 'expired_state'
      ? 'This Slack authorisation took longer than 10 minutes and has expired.'
      : problem === 'used_state'
        ? 'This Slack authorisation link was already used.'
        : problem === 'wrong_browser'
          ? 'This Slack authorisation was started in another browser. Start it again in this one.'
          : 'This Slack authorisation did not come from Parley.';
  res
    .status(400)
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Slack authorisation refused</title></head>` +
        `<body><main><h1>Slack authorisation refused</h1><p id="oauth-problem" data-problem="${problem}">${why} Nothing was changed.</p>` +
        `<p><a href="/app/">Back to Parley</a> and start again from there.</p></main></body></html>`,
    );
}

export function oauthRouter(deps: OAuthDeps): Router {
  const { config, models, logger } = deps;
  const router = Router();
  const api = slackClient(config.slack.apiUrl, undefined, deps.slack.fetch);

  const limits = config.rateLimits;
  // Public and each visit stores a state: held to the sign-up budget per client address.
  const signUpLimit = deps.limiters.perIpAndEmail('slack-signup', limits.windowMs, limits.signUpPerIp, limits.signUpPerEmail);

  router.get('/slack/oauth/signup', ...signUpLimit, async (req: Request, res: Response) => {
    const source = typeof req.query.source === 'string' ? req.query.source.slice(0, 200) : '';
    const url = await slackAuthorizeUrl(deps, {
      purpose: 'signup',
      browserId: ensureBrowserId(req, res, config.publicUrl.startsWith('https:')),
      source: source || undefined,
      botScopes: INSTALL_BOT_SCOPES,
      userScopes: INSTALL_USER_SCOPES,
    });
    res.redirect(302, url);
  });

  router.get(OAUTH_REDIRECT_PATH, async (req: Request, res: Response) => {
    const q = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : '');
    const consumed = await consumeOAuthState(models, config.jwtSecret, q('state'), browserIdOf(req));
    if (!consumed.ok) return refusedPage(res, consumed.problem);
    const payload = consumed.payload;
    const page = pageFor(payload);
    const fail = (code: string) => res.redirect(302, withError(page, code));

    const slackError = q('error');
    if (slackError) return fail(ERROR_CODE.test(slackError) ? slackError : 'oauth_error');
    if (!q('code')) return fail('missing_code');

    // The Parley user and widget the state was made for must still exist and belong together.
    const user = payload.uid ? await models.User.findById(payload.uid) : null;
    const ce = payload.ceId && user ? await models.ChatEndpoint.findOne({ _id: payload.ceId, accountId: user.accountId }) : null;
    if (payload.purpose === 'new_team' && !user) return fail('widget_not_found');
    if (payload.purpose !== 'signup' && payload.purpose !== 'new_team' && (!user || !ce)) return fail('widget_not_found');

    let access: OauthV2AccessResponse;
    try {
      access = await api.oauth.v2.access({
        client_id: config.slack.clientId,
        client_secret: config.slack.clientSecret,
        code: q('code'),
        redirect_uri: oauthRedirectUrl(config),
      });
    } catch (error) {
      if (!isSlackCallError(error)) throw error;
      logger.error({ slackError: slackErrorCode(error), err: error }, 'Slack oauth.v2.access failed');
      return fail('oauth_failed');
    }
    const teamId = access.team?.id ?? '';
    const authedUserId = access.authed_user?.id ?? '';
    if (!access.access_token || !teamId || !authedUserId) return fail('oauth_failed');

    if (ce && (payload.purpose === 'swap_user' || payload.purpose === 'upgrade') && ce.slackTeamId !== teamId) return fail('wrong_team');
    // Only the main user may approve more permissions; a colleague's approval changes nothing.
    if (ce && payload.purpose === 'upgrade' && ce.slackMainUser && ce.slackMainUser !== authedUserId) return fail('wrong_user');

    const bot = slackClient(config.slack.apiUrl, access.access_token, deps.slack.fetch);
    let url = '';
    let botId = '';
    try {
      const test = await bot.auth.test();
      url = test.url ?? '';
      botId = test.bot_id ?? '';
    } catch (error) {
      if (!isSlackCallError(error)) throw error;
      return fail('oauth_failed');
    }
    const granted: GrantedInstallation = {
      teamId,
      teamName: access.team?.name ?? '',
      url,
      appId: access.app_id ?? '',
      botToken: access.access_token,
      botUserId: access.bot_user_id ?? '',
      botId,
      botScopes: splitScopes(access.scope),
      authedUserId,
      ...(access.authed_user?.access_token
        ? { userToken: { token: access.authed_user.access_token, scopes: splitScopes(access.authed_user.scope) } }
        : {}),
    };
    const inst = await saveInstallation(models, granted);
    installationChanged({ slack: deps.slack, pubsub: deps.relay.pubsub }, granted.teamId);

    const profile = await slackProfile(bot, authedUserId);
    const who: SlackAuthorizer = authorizerOf(inst, authedUserId, profile.name);

    switch (payload.purpose) {
      case 'signup': {
        if (!profile.email) return fail('no_email');
        const { user: signedIn, ce: first } = await signUpWithSlack(models, { email: profile.email, source: payload.source ?? '', who });
        const token = await createSession(models, config.jwtSecret, signedIn._id);
        return res.redirect(302, `/app/?auth_token=${encodeURIComponent(token)}${first ? `#/setup/${first.id}` : '#/'}`);
      }
      case 'install':
        if (!ce) return fail('widget_not_found');
        await completeInstall(ce, who);
        return res.redirect(302, `/app/#/setup/${ce.id}`);
      case 'new_team': {
        if (!user) return fail('widget_not_found');
        // The widget exists only once Slack said yes: an abandoned consent leaves nothing on the dashboard.
        const created = await newWidget(models, user).catch((error: unknown) => {
          if (error instanceof PaymentRequiredError) return null;
          throw error;
        });
        if (!created) return fail(PLAN_LIMIT_ERROR);
        await completeInstall(created, who);
        return res.redirect(302, `/app/#/setup/${created.id}`);
      }
      case 'swap_user':
        if (!user) return fail('widget_not_found');
        await completeSwapUser(models, user.accountId, who);
        return res.redirect(302, '/app/#/?userSwapped=1');
      case 'upgrade':
        if (!user || !ce) return fail('widget_not_found');
        await completeUpgrade(models, user.accountId, who);
        return res.redirect(302, `/app/#/permissions/${ce.id}`);
    }
  });

  return router;
}

/** The authorising user's display name and e-mail (users:read, users:read.email); blanks when Slack will not say. */
async function slackProfile(bot: ReturnType<typeof slackClient>, userId: string): Promise<{ name: string; email: string }> {
  try {
    const info = await bot.users.info({ user: userId });
    const u = info.user;
    return {
      name: u?.profile?.display_name || u?.real_name || u?.name || '',
      email: (u?.profile?.email ?? '').trim().toLowerCase(),
    };
  } catch (error) {
    if (!isSlackCallError(error)) throw error;
    return { name: '', email: '' };
  }
}
