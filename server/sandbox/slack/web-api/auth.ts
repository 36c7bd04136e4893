/**
 * The Web API's auth.test, auth.revoke, apps.uninstall and team.info; oauth.v2.access, which needs no token (the app
 * authenticates with its client id and secret), is called by index.ts before any token is read.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { installApp, revokeToken, SlackApiError, uninstallApp } from '../ops';
import { teamObject } from '../present';
import type { AppCredentials, Args, MethodDeps, MethodTable } from './args';
import { bool, str } from './args';

export function authMethods({ ctx, app }: MethodDeps): MethodTable {
  const { state } = ctx;
  return {
    'auth.test': ({ auth, ws }) => {
      const u = state.user(auth.userId);
      return {
        url: ws.url,
        team: ws.name,
        user: u?.name ?? '',
        team_id: ws.id,
        user_id: auth.userId,
        ...(auth.kind === 'bot' ? { bot_id: auth.installation.botId } : {}),
        is_enterprise_install: false,
      };
    },

    'auth.revoke': ({ args, auth }) => {
      if (!bool(args, 'test')) revokeToken(ctx, auth.token);
      return { revoked: true };
    },

    'apps.uninstall': ({ args, ws }) => {
      checkClient(app, str(args, 'client_id'), str(args, 'client_secret'));
      uninstallApp(ctx, ws.id);
      return {};
    },

    'team.info': ({ args, ws }) => {
      const team = str(args, 'team');
      if (team && team !== ws.id) throw new SlackApiError('team_not_found');
      return { team: teamObject(ws) };
    },
  };
}

/** oauth.v2.access: a grant's code exchanged for the installation's tokens; the client id and secret, no token. */
export const oauthAccess = ({ ctx, app }: Pick<MethodDeps, 'ctx' | 'app'>, req: Request, args: Args): Record<string, unknown> => {
  const { state } = ctx;
  let clientId = str(args, 'client_id');
  let clientSecret = str(args, 'client_secret');
  const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const [id, secret] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
    clientId = clientId ?? id;
    clientSecret = clientSecret ?? secret;
  }
  checkClient(app, clientId, clientSecret);
  const code = str(args, 'code');
  if (!code) throw new SlackApiError('invalid_code');
  const grant = state.codes.get(code);
  if (!grant || grant.clientId !== clientId) throw new SlackApiError('invalid_code');
  if (grant.used) {
    throw new SlackApiError('invalid_code');
  }
  grant.used = true;
  if (Date.now() > grant.expiresAt) throw new SlackApiError('invalid_code');
  const redirectUri = str(args, 'redirect_uri');
  if (grant.redirectUri && redirectUri !== undefined && redirectUri !== grant.redirectUri) throw new SlackApiError('bad_redirect_uri');
  const ws = state.workspace(grant.teamId);
  if (!ws) throw new SlackApiError('invalid_code');
  const inst = installApp(ctx, app, ws, grant.userId, grant.botScopes, grant.userScopes);
  const userToken = inst.userTokens[grant.userId];
  return {
    app_id: app.appId,
    authed_user: {
      id: grant.userId,
      ...(grant.userScopes.length > 0 && userToken
        ? { scope: userToken.scopes.join(','), access_token: userToken.token, token_type: 'user' }
        : {}),
    },
    // No bot token comes back while the app has no bot scopes in the workspace (a user-scopes-only
    // authorization of a fresh install); a re-authorization returns the installation's bot token.
    ...(inst.botScopes.length > 0
      ? { scope: inst.botScopes.join(','), token_type: 'bot', access_token: inst.botToken, bot_user_id: inst.botUserId }
      : {}),
    team: { id: ws.id, name: ws.name },
    enterprise: null,
    is_enterprise_install: false,
  };
};

function checkClient(app: AppCredentials, clientId: string | undefined, clientSecret: string | undefined): void {
  if (clientId !== app.clientId) throw new SlackApiError('invalid_client_id');
  if (!clientSecret || !safeEqual(clientSecret, app.clientSecret)) throw new SlackApiError('bad_client_secret');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
