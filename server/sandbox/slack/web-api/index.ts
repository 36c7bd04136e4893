// The Web API: POST {baseUrl}/api/<method>, form-encoded or JSON, token as a Bearer header or a `token` field.
// Answers are Slack's: HTTP 200 with { ok: true, … } or { ok: false, error, … }; HTTP 429 with Retry-After
// when rate limited. The methods are in one file per family (auth.ts, conversations.ts, chat.ts…), each a table of
// methods by name; FAMILIES below lists them. A new method goes into its family's table, a new family into FAMILIES.

import express, { type Request, type Response, type Router } from 'express';
import { SlackApiError } from '../ops';
import type { PresentContext } from '../present';
import type { RateLimiter } from '../rate-limits';
import { methodScopes, missingScope } from '../scopes';
import type { Sender } from '../sender';
import { isRecord } from '../sender';
import type { TokenInfo } from '../state';
import type { AppCredentials, Args, MethodDeps, MethodFamily, MethodTable } from './args';
import { authMethods, oauthAccess } from './auth';
import { chatMethods } from './chat';
import { conversationMethods } from './conversations';
import { fileMethods } from './files';
import { reactionMethods } from './reactions';
import { userMethods } from './users';
import { viewMethods } from './views';

export type { AppCredentials } from './args';

/** Every method the sandbox answers, by family. */
const FAMILIES: readonly MethodFamily[] = [
  authMethods,
  conversationMethods,
  chatMethods,
  reactionMethods,
  userMethods,
  viewMethods,
  fileMethods,
];

export function webApiRouter(ctx: PresentContext, sender: Sender, app: AppCredentials, limiter: RateLimiter | null): Router {
  const router = express.Router();
  const { state } = ctx;
  router.use('/api', express.urlencoded({ extended: false, limit: '5mb' }), express.json({ limit: '5mb' }));
  const deps: MethodDeps = { ctx, sender, app };
  const methods: MethodTable = Object.fromEntries(FAMILIES.flatMap((family) => Object.entries(family(deps))));

  router.post('/api/:method', (req: Request, res: Response) => {
    const method = String(req.params.method);
    const args: Args = isRecord(req.body) ? { ...req.body } : {};
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
    delete args.token;
    const logged: Args = { ...args };
    delete logged.client_secret;
    const at = Date.now();
    const reply = (status: number, body: Record<string, unknown>, info?: TokenInfo) => {
      // A call carried out may lose its answer on the way back (state.dropResponses): the caller cannot tell
      // whether it happened, as when a connection breaks after Slack received the request.
      const dropped = body.ok === true ? state.takeDrop(method) : null;
      state.logCall({
        method,
        teamId: info?.installation.teamId,
        tokenType: info?.kind,
        args: logged,
        ok: body.ok === true,
        error: typeof body.error === 'string' ? body.error : undefined,
        status,
        ...(dropped ? { dropped: dropped.mode } : {}),
        at,
      });
      if (dropped) {
        if (dropped.mode === 'reset') req.socket.destroy();
        else state.hold(req.socket, dropped.holdMs);
        return;
      }
      if (info) {
        res.setHeader('x-oauth-scopes', info.scopes.join(','));
        const rule = methodScopes[method];
        res.setHeader('x-accepted-oauth-scopes', (rule?.[info.kind] ?? []).join(','));
      }
      res.status(status).json(body);
    };

    if (method !== 'oauth.v2.access' && !methods[method]) return reply(200, { ok: false, error: 'unknown_method', req_method: method });
    const fault = state.takeFault(method);
    if (fault) {
      // An outage the sandbox was told to act (state.failNext, failFor, rateLimit): Slack's answer, not Parley's fault,
      // so the request log says so without an error's stack (http/requestLog.ts).
      res.locals.sandboxFault = true;
      if (fault.retryAfter !== undefined) res.setHeader('Retry-After', String(fault.retryAfter));
      return reply(fault.status, { ok: false, error: fault.status === 429 ? 'ratelimited' : 'fatal_error' });
    }
    try {
      if (method === 'oauth.v2.access') return reply(200, { ok: true, ...oauthAccess(deps, req, args) });
      if (!token) return reply(200, { ok: false, error: 'not_authed' });
      const info = state.resolveToken(token);
      if (info === 'revoked') return reply(200, { ok: false, error: 'token_revoked' });
      if (!info) return reply(200, { ok: false, error: 'invalid_auth' });
      const ws = state.workspace(info.installation.teamId);
      if (!ws) return reply(200, { ok: false, error: 'account_inactive' });
      const rule = methodScopes[method];
      if (rule && rule[info.kind] === null) return reply(200, { ok: false, error: 'not_allowed_token_type' }, info);
      const needed = missingScope(method, info.kind, info.scopes);
      if (needed) return reply(200, { ok: false, error: 'missing_scope', needed: needed.join(','), provided: info.scopes.join(',') }, info);
      const wait = limiter?.enabled ? limiter.take(ws.id, method, typeof args.channel === 'string' ? args.channel : undefined) : null;
      if (wait !== null) {
        res.setHeader('Retry-After', String(wait));
        return reply(429, { ok: false, error: 'ratelimited' }, info);
      }
      const out = methods[method]({ args, auth: info, ws });
      return reply(200, { ok: true, ...out }, info);
    } catch (err) {
      if (err instanceof SlackApiError) return reply(200, { ok: false, error: err.error, ...err.extra });
      console.error('[slack sandbox] internal error in', method, err);
      return reply(200, { ok: false, error: 'fatal_error' });
    }
  });

  router.get('/api/:method', (_req, res) => {
    res.status(200).json({ ok: false, error: 'invalid_post_type' });
  });

  return router;
}
