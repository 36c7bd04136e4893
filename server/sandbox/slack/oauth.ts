// The OAuth v2 consent page: GET {baseUrl}/oauth/v2/authorize shows what the app asks for, lets the person pick
// the workspace and the Slack user to authorize as, and redirects back with a single-use code (or access_denied).

import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { escapeHtml, pageShell } from './html';
import type { PresentContext } from './present';

export interface OAuthAppConfig {
  clientId: string;
  name: string;
  /** Redirect URLs configured for the app; when given, redirect_uri must be one of them or a path below one. */
  redirectUrls?: string[];
  /** How long a code can be exchanged (Slack: 10 minutes). */
  codeTtlMs: number;
}

const SCOPE_RE = /^[a-z][a-z0-9_.:-]*$/;

export function oauthRouter(ctx: PresentContext, app: OAuthAppConfig): Router {
  const router = express.Router();
  const { state } = ctx;

  const parse = (q: Record<string, unknown>) => {
    const s = (k: string) => (typeof q[k] === 'string' ? (q[k] as string) : '');
    const split = (v: string) =>
      v
        .split(/[,\s]+/)
        .map((x) => x.trim())
        .filter(Boolean);
    return {
      clientId: s('client_id'),
      botScopes: split(s('scope')),
      userScopes: split(s('user_scope')),
      redirectUri: s('redirect_uri') || app.redirectUrls?.[0] || '',
      givenRedirect: s('redirect_uri'),
      stateParam: s('state'),
      team: s('team'),
    };
  };

  const problem = (p: ReturnType<typeof parse>): string | null => {
    if (p.clientId !== app.clientId) return 'Invalid client_id parameter';
    if (!p.redirectUri) return 'No redirect_uri was given and the app has no redirect URL configured';
    if (!/^https?:\/\//.test(p.redirectUri)) return 'redirect_uri must be an http(s) URL';
    // Slack accepts a configured URL or a path below it.
    const allowed = (u: string) => {
      const base = u.replace(/\/+$/, '');
      const target = p.redirectUri.split('?')[0];
      return target === base || target.startsWith(`${base}/`);
    };
    if (app.redirectUrls && app.redirectUrls.length > 0 && !app.redirectUrls.some(allowed))
      return 'redirect_uri did not match any configured URIs';
    if (p.botScopes.length === 0 && p.userScopes.length === 0) return 'Invalid permissions requested: no scope or user_scope';
    const bad = [...p.botScopes, ...p.userScopes].find((x) => !SCOPE_RE.test(x));
    if (bad) return `Invalid permissions requested: ${bad}`;
    return null;
  };

  const withQuery = (url: string, params: Record<string, string>): string => {
    const u = new URL(url);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.toString();
  };

  /** Answers 400 with the authorization problem page: `message` (escaped here), under `heading` when given. */
  const authorizationProblem = (res: Response, message: string, heading?: string): void => {
    const title = heading ? `<h1>${escapeHtml(heading)}</h1>` : '';
    res
      .status(400)
      .type('html')
      .send(
        pageShell(
          'Slack sandbox — authorization problem',
          `<main class="card">${title}<p id="sandbox-oauth-error">${escapeHtml(message)}</p></main>`,
        ),
      );
  };

  router.get('/oauth/v2/authorize', (req: Request, res: Response) => {
    const p = parse(req.query as Record<string, unknown>);
    const err = problem(p);
    if (err) {
      authorizationProblem(res, err, 'Something went wrong');
      return;
    }
    const workspaces = p.team ? state.data.workspaces.filter((w) => w.id === p.team) : state.data.workspaces;
    if (workspaces.length === 0) {
      authorizationProblem(res, `No workspace ${p.team} in this sandbox.`, 'Unknown workspace');
      return;
    }
    const hidden = ['client_id', 'scope', 'user_scope', 'redirect_uri', 'state']
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(String((req.query as Record<string, unknown>)[k] ?? ''))}">`)
      .join('');
    const teamOptions = workspaces
      .map((w) => `<option value="${escapeHtml(w.id)}">${escapeHtml(w.name)} (${escapeHtml(w.domain)})</option>`)
      .join('');
    const userOptions = workspaces
      .flatMap((w) =>
        state
          .usersOf(w.id)
          .filter((u) => !u.isBot && !u.deleted)
          .map(
            (u) =>
              `<option value="${escapeHtml(u.id)}" data-team="${escapeHtml(w.id)}">${escapeHtml(u.realName)} (@${escapeHtml(u.name)})</option>`,
          ),
      )
      .join('');
    const scopeList = (title: string, scopes: string[], id: string) =>
      scopes.length === 0
        ? ''
        : `<h2>${title}</h2><ul id="${id}">${scopes.map((x) => `<li><code>${escapeHtml(x)}</code></li>`).join('')}</ul>`;
    const body = `
<main class="card oauth">
  <h1><span class="app-badge">${escapeHtml(app.name.slice(0, 1))}</span> ${escapeHtml(app.name)} is requesting permission to access a Slack workspace</h1>
  <form method="post" action="${escapeHtml(ctx.baseUrl)}/oauth/v2/authorize" id="sandbox-oauth-form">
    ${hidden}
    <label>Workspace <select name="team" id="sandbox-oauth-team">${teamOptions}</select></label>
    <label>Authorize as <select name="user" id="sandbox-oauth-user">${userOptions}</select></label>
    ${scopeList('What the app will be able to do (bot)', p.botScopes, 'sandbox-oauth-bot-scopes')}
    ${scopeList('What it can do on your behalf (user)', p.userScopes, 'sandbox-oauth-user-scopes')}
    <div class="buttons">
      <button type="submit" name="decision" value="cancel" id="sandbox-oauth-cancel" class="secondary">Cancel</button>
      <button type="submit" name="decision" value="allow" id="sandbox-oauth-allow">Allow</button>
    </div>
  </form>
  <p class="muted">This is the Parley Slack sandbox, a local stand-in for slack.com.</p>
</main>
<script>
(function () {
  var team = document.getElementById('sandbox-oauth-team');
  var user = document.getElementById('sandbox-oauth-user');
  function sync() {
    var first = null;
    for (var i = 0; i < user.options.length; i++) {
      var o = user.options[i];
      var show = o.getAttribute('data-team') === team.value;
      o.hidden = !show; o.disabled = !show;
      if (show && !first) first = o;
    }
    if (user.selectedOptions.length === 0 || user.selectedOptions[0].disabled) { if (first) user.value = first.value; }
  }
  team.addEventListener('change', sync); sync();
})();
</script>`;
    res.type('html').send(pageShell(`Authorize ${app.name}`, body));
  });

  router.post('/oauth/v2/authorize', express.urlencoded({ extended: false }), (req: Request, res: Response) => {
    const p = parse(req.body as Record<string, unknown>);
    const err = problem(p);
    if (err) {
      authorizationProblem(res, err);
      return;
    }
    const body = req.body as Record<string, string>;
    const extra: Record<string, string> = p.stateParam ? { state: p.stateParam } : {};
    if (body.decision !== 'allow') {
      res.redirect(302, withQuery(p.redirectUri, { error: 'access_denied', ...extra }));
      return;
    }
    const ws = state.workspace(body.team ?? '');
    const user = state.user(body.user ?? '');
    if (!ws || !user || user.teamId !== ws.id || user.isBot) {
      authorizationProblem(res, 'Pick a workspace and one of its people.');
      return;
    }
    const code = `${Date.now()}.${randomBytes(20).toString('hex')}`;
    state.codes.set(code, {
      code,
      teamId: ws.id,
      userId: user.id,
      clientId: p.clientId,
      botScopes: p.botScopes,
      userScopes: p.userScopes,
      redirectUri: p.givenRedirect || undefined,
      expiresAt: Date.now() + app.codeTtlMs,
      used: false,
    });
    res.redirect(302, withQuery(p.redirectUri, { code, ...extra }));
  });

  return router;
}
