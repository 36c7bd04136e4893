// The operator page's back end: a JSON view of one person's Slack (channels, threads, ephemeral answers,
// modals, App Home) and the actions a person takes there. The page itself is in operator-page.ts.
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { emojiFor } from '../../emoji';
import type { ShortcutDefinition, SlackSandbox } from './contract';
import { escapeHtml } from './html';
import { type MrkdwnNames, renderMrkdwn, withHtml } from './mrkdwn';
import { HE_SCRIPT_PATH, operatorPage } from './operator-page';
import { archiveChannel, createChannel, joinChannel, leaveChannel, postMessage, renameChannel, SlackApiError, uninstallApp } from './ops';
import type { PresentContext } from './present';
import type { DeliveryResult } from './sender';
import type { Message, SandboxView } from './types';
import { extOf, mimeOf } from './web-api/files';

interface OperatorConfig {
  appName: string;
  shortcuts: ShortcutDefinition[];
  commands: string[];
}

type Body = Record<string, unknown>;

/** he's own file, which defines `he` in a browser as well as in Node. */
const HE_SCRIPT = require.resolve('he');

export function operatorRouter(ctx: PresentContext, sandbox: SlackSandbox, config: OperatorConfig): Router {
  const router = express.Router();
  const { state } = ctx;

  router.get('/', (_req: Request, res: Response) => {
    res.type('html').send(operatorPage(ctx.baseUrl, config.appName));
  });

  // he, the HTML escaper Parley's server uses, for the page's own script (it builds the page from JSON).
  router.get(HE_SCRIPT_PATH, (_req: Request, res: Response) => {
    res
      .set('Cache-Control', 'public, max-age=86400')
      .type('js')
      .sendFile(path.basename(HE_SCRIPT), { root: path.dirname(HE_SCRIPT) });
  });

  router.get('/operator/api/events', (req: Request, res: Response) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(`event: change\ndata: ${state.version}\n\n`);
    let pending: NodeJS.Timeout | null = null;
    // Bursts of changes are coalesced so a busy relay doesn't flood the page.
    const onChange = () => {
      if (pending) return;
      pending = setTimeout(() => {
        pending = null;
        res.write(`event: change\ndata: ${state.version}\n\n`);
      }, 100);
    };
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 25_000);
    state.on('change', onChange);
    req.on('close', () => {
      state.off('change', onChange);
      clearInterval(keepAlive);
      if (pending) clearTimeout(pending);
    });
  });

  const userName = (id: string) => {
    const u = state.user(id);
    return u ? u.displayName || u.realName : id;
  };

  // The one renderer of Slack markup for everything the page shows (messages, blocks, App Home, modals).
  const names: MrkdwnNames = { user: userName, channel: (id) => state.channel(id)?.name ?? id };

  const presentMessage = (m: Message, me: string) => {
    const author = state.user(m.user);
    const replies = state.replies(m.channel, m.ts);
    return {
      ts: m.ts,
      user: m.user,
      author: m.username ?? (author ? author.realName : m.user),
      image: m.iconUrl ?? author?.image ?? '',
      isBot: !!m.botId,
      text: m.text,
      html: renderMrkdwn(m.text, names),
      blocks: withHtml(m.blocks?.filter((b) => (b as Record<string, unknown>).type !== 'rich_text') ?? [], names),
      files: (m.files ?? [])
        .map((id) => state.file(id))
        .filter((f) => !!f)
        .map((f) => ({
          id: f.id,
          name: f.name,
          title: f.title,
          mimetype: f.mimetype,
          size: f.size,
          url: `${ctx.baseUrl}/operator/api/file/${f.id}`,
        })),
      threadTs: m.threadTs ?? null,
      replyBroadcast: !!m.replyBroadcast,
      replyCount: m.threadTs === m.ts ? replies.length : 0,
      replyUsers: [...new Set(replies.map((r) => r.user))].slice(0, 3).map((id) => ({ id, image: state.user(id)?.image ?? '' })),
      edited: !!m.edited,
      reactions: (m.reactions ?? []).map((r) => ({ name: r.name, emoji: emojiFor(r.name) ?? `:${r.name}:`, count: r.users.length })),
      tombstone: !!m.tombstone,
      mine: m.user === me,
    };
  };

  const presentView = (v: SandboxView | undefined) =>
    v
      ? {
          id: v.id,
          type: v.type,
          title: withHtml(v.definition.title ?? null, names),
          submit: withHtml(v.definition.submit ?? null, names),
          close: withHtml(v.definition.close ?? null, names),
          blocks: withHtml(v.definition.blocks ?? [], names),
          errors: v.errors ?? {},
          values: v.values,
        }
      : null;

  router.get('/operator/api/snapshot', (req: Request, res: Response) => {
    const q = req.query as Record<string, string | undefined>;
    const ws = state.workspace(q.team ?? '') ?? state.data.workspaces[0];
    if (!ws) {
      res.json({ version: state.version, workspaces: [] });
      return;
    }
    const users = state.usersOf(ws.id);
    const me =
      users.find((u) => u.id === q.user && !u.isBot) ??
      users.find((u) => !u.isBot && u.presence === 'active') ??
      users.find((u) => !u.isBot);
    const meId = me?.id ?? '';
    const channels = state.channelsOf(ws.id).filter((c) => !c.isPrivate || c.members.includes(meId));
    const channel =
      channels.find((c) => c.id === q.channel) ?? channels.find((c) => c.members.includes(meId) && !c.isArchived) ?? channels[0];
    const inst = state.installation(ws.id);
    const threadParent = channel && q.thread ? state.message(channel.id, q.thread) : undefined;
    const modals = state.openModals(ws.id, meId);
    res.json({
      version: state.version,
      app: {
        name: config.appName,
        installed: !!inst,
        botUserId: inst?.botUserId ?? null,
        botScopes: inst?.botScopes ?? [],
        shortcuts: config.shortcuts,
        commands: config.commands,
      },
      workspaces: state.data.workspaces.map((w) => ({ id: w.id, name: w.name, domain: w.domain })),
      faults: state.activeFaults(),
      team: { id: ws.id, name: ws.name, domain: ws.domain },
      users: users
        .filter((u) => !u.deleted)
        .map((u) => ({
          id: u.id,
          name: u.name,
          realName: u.realName,
          image: u.image ?? '',
          presence: u.presence,
          isBot: u.isBot,
          title: u.title ?? '',
        })),
      me: meId,
      channels: channels.map((c) => ({
        id: c.id,
        name: c.name,
        isMember: c.members.includes(meId),
        isArchived: c.isArchived,
        memberCount: c.members.length,
      })),
      appDm: meId
        ? sandbox
            .appDmMessages({ teamId: ws.id, userId: meId })
            .slice(-200)
            .map((m) => presentMessage(m, meId))
        : [],
      channel: channel
        ? {
            id: channel.id,
            name: channel.name,
            topic: channel.topic.value,
            purpose: channel.purpose.value,
            isArchived: channel.isArchived,
            isMember: channel.members.includes(meId),
            members: channel.members.map((id) => ({
              id,
              name: userName(id),
              presence: state.user(id)?.presence ?? 'away',
              isBot: !!state.user(id)?.isBot,
            })),
            messages: [
              ...state
                .channelMessages(channel.id)
                .slice(-200)
                .map((m) => presentMessage(m, meId)),
              ...(state.data.joins ?? [])
                .filter((j) => j.channel === channel.id)
                .slice(-50)
                .map((j) => ({
                  system: 'channel_join',
                  ts: j.ts,
                  user: j.user,
                  author: state.user(j.user)?.realName ?? j.user,
                  image: state.user(j.user)?.image ?? '',
                  html: `joined #${escapeHtml(channel.name)}.`,
                })),
            ].sort((a, b) => Number(a.ts) - Number(b.ts)),
          }
        : null,
      thread: threadParent
        ? {
            parent: presentMessage(threadParent, meId),
            replies: state.replies(channel?.id ?? '', threadParent.ts).map((m) => presentMessage(m, meId)),
          }
        : null,
      ephemerals: channel
        ? state
            .ephemeralsFor(ws.id, meId, channel.id)
            .slice(-20)
            .map((e) => ({
              id: e.id,
              text: e.text,
              html: renderMrkdwn(e.text, names),
              blocks: withHtml(e.blocks ?? [], names),
              threadTs: e.threadTs ?? null,
              messageTs: e.messageTs,
              from: e.from,
            }))
        : [],
      modal: presentView(modals[modals.length - 1]),
      modalDepth: modals.length,
      home: presentView(state.homeView(ws.id, meId)),
      deliveries: state.deliveries
        .filter((d) => !d.teamId || d.teamId === ws.id)
        .slice(-12)
        .reverse()
        .map((d) => ({
          id: d.id,
          kind: d.kind,
          summary: d.summary,
          ok: d.ok,
          attempts: d.attempts.length,
          status: d.attempts.at(-1)?.status ?? null,
          failure: d.attempts.at(-1)?.failure ?? null,
          tries: d.attempts.map((a) => ({
            retryNum: a.retryNum,
            retryReason: a.retryReason ?? null,
            status: a.status ?? null,
            failure: a.failure ?? null,
            body: (a.body ?? a.error ?? '').slice(0, 300),
          })),
        })),
    });
  });

  router.get('/operator/api/file/:id', (req: Request, res: Response) => {
    const f = state.file(String(req.params.id));
    if (!f?.completed) {
      res.status(404).end();
      return;
    }
    res.setHeader('content-type', f.mimetype);
    res.setHeader('content-disposition', `inline; filename="${f.name.replace(/"/g, '')}"`);
    res.end(Buffer.from(f.contentBase64 ?? '', 'base64'));
  });

  // ---- actions -------------------------------------------------------------------------------------

  const act = (handler: (b: Body) => Promise<unknown> | unknown) => async (req: Request, res: Response) => {
    try {
      const out = await handler((req.body ?? {}) as Body);
      res.json({ ok: true, ...(out && typeof out === 'object' ? out : {}) });
    } catch (err) {
      if (err instanceof SlackApiError) {
        res.status(400).json({ ok: false, error: err.error });
        return;
      }
      console.error('[slack sandbox] operator action failed', err);
      res.status(500).json({ ok: false, error: err instanceof Error ? err.message : 'failed' });
    }
  };
  const s = (b: Body, k: string): string => (typeof b[k] === 'string' ? (b[k] as string) : '');
  const userIn = (b: Body) => {
    const u = state.user(s(b, 'user'));
    if (!u || u.teamId !== s(b, 'team') || u.isBot) throw new SlackApiError('user_not_found');
    return u;
  };
  const channelIn = (b: Body) => {
    const c = state.channel(s(b, 'channel'));
    if (!c || c.teamId !== s(b, 'team')) throw new SlackApiError('channel_not_found');
    return c;
  };
  const delivery = (r: DeliveryResult) => ({
    delivered: r.ok,
    skipped: r.skipped ?? null,
    status: r.status ?? null,
    failure: r.attempts.at(-1)?.failure ?? null,
    viewErrors: r.viewErrors ?? null,
  });

  router.use('/operator/api', express.json({ limit: '30mb' }));

  // Slack misbehaving on purpose, to watch the app cope: lost answers, rate limits, outages (per method or '*').
  router.post(
    '/operator/api/faults',
    act((b) => {
      const method = s(b, 'method').trim() || '*';
      if (!/^(\*|[a-z]+(\.[a-zA-Z]+)+)$/.test(method)) throw new SlackApiError('invalid_method');
      const seconds = Math.min(3600, Math.max(1, Math.round(Number(b.seconds) || 30)));
      const fault = s(b, 'fault');
      if (fault === 'clear') state.clearFaults();
      else if (fault === 'drop') state.dropResponses(method, { seconds });
      else if (fault === 'hang') state.dropResponses(method, { seconds, mode: 'hang' });
      else if (fault === 'ratelimit') state.rateLimit(method, seconds);
      else if (fault === 'outage') state.failFor(method, seconds, 503);
      else throw new SlackApiError('invalid_fault');
      state.changed();
    }),
  );

  router.post(
    '/operator/api/presence',
    act((b) => {
      const u = userIn(b);
      state.setPresence(u.id, s(b, 'presence') === 'active' ? 'active' : 'away');
    }),
  );

  router.post(
    '/operator/api/post',
    act(async (b) => {
      const u = userIn(b);
      const c = channelIn(b);
      const text = s(b, 'text').trim();
      if (!text) throw new SlackApiError('no_text');
      const slash = /^(\/[a-z0-9_-]+)(?:\s+([\s\S]*))?$/i.exec(text);
      if (slash && !s(b, 'threadTs')) {
        const r = await sandbox.sendSlashCommand({
          teamId: c.teamId,
          userId: u.id,
          channelId: c.id,
          command: slash[1].toLowerCase(),
          text: (slash[2] ?? '').trim(),
        });
        return { command: delivery(r) };
      }
      const m = await sandbox.postAsUser({
        teamId: c.teamId,
        userId: u.id,
        channelId: c.id,
        text,
        threadTs: s(b, 'threadTs') || undefined,
        broadcast: b.broadcast === true,
      });
      return { ts: m.ts };
    }),
  );

  router.post(
    '/operator/api/edit',
    act(async (b) => {
      const u = userIn(b);
      const c = channelIn(b);
      const text = s(b, 'text').trim();
      if (!text) throw new SlackApiError('no_text');
      await sandbox.editAsUser({ teamId: c.teamId, userId: u.id, channelId: c.id, ts: s(b, 'ts'), text });
    }),
  );

  router.post(
    '/operator/api/delete',
    act(async (b) => {
      const u = userIn(b);
      const c = channelIn(b);
      await sandbox.deleteAsUser({ teamId: c.teamId, userId: u.id, channelId: c.id, ts: s(b, 'ts') });
    }),
  );

  router.post(
    '/operator/api/join',
    act((b) => {
      joinChannel(ctx, channelIn(b), userIn(b).id);
    }),
  );

  router.post(
    '/operator/api/leave',
    act((b) => {
      leaveChannel(ctx, channelIn(b), userIn(b).id);
    }),
  );

  router.post(
    '/operator/api/create-channel',
    act((b) => {
      const u = userIn(b);
      const c = createChannel(ctx, u.teamId, s(b, 'name'), u.id);
      return { channel: c.id };
    }),
  );

  router.post(
    '/operator/api/rename-channel',
    act((b) => {
      userIn(b);
      renameChannel(ctx, channelIn(b), s(b, 'name'));
    }),
  );

  router.post(
    '/operator/api/archive-channel',
    act((b) => {
      archiveChannel(ctx, channelIn(b), userIn(b).id);
    }),
  );

  router.post(
    '/operator/api/action',
    act(async (b) => {
      const u = userIn(b);
      const r = await sandbox.sendBlockAction({
        teamId: u.teamId,
        userId: u.id,
        actionId: s(b, 'actionId'),
        blockId: s(b, 'blockId') || undefined,
        value: typeof b.value === 'string' ? b.value : undefined,
        ...(s(b, 'viewId')
          ? { viewId: s(b, 'viewId') }
          : s(b, 'ephemeralId')
            ? { ephemeralId: s(b, 'ephemeralId') }
            : { message: { channelId: s(b, 'channel'), ts: s(b, 'ts') } }),
      });
      return delivery(r);
    }),
  );

  router.post(
    '/operator/api/submit-view',
    act(async (b) => {
      const u = userIn(b);
      const values = (b.values && typeof b.values === 'object' ? b.values : {}) as Record<string, Record<string, unknown>>;
      const r = await sandbox.sendViewSubmission({ teamId: u.teamId, userId: u.id, viewId: s(b, 'viewId'), values });
      return delivery(r);
    }),
  );

  router.post(
    '/operator/api/close-view',
    act(async (b) => {
      const u = userIn(b);
      await sandbox.closeView({ teamId: u.teamId, userId: u.id, viewId: s(b, 'viewId') });
    }),
  );

  router.post(
    '/operator/api/shortcut',
    act(async (b) => {
      const u = userIn(b);
      const r = await sandbox.sendShortcut({
        teamId: u.teamId,
        userId: u.id,
        callbackId: s(b, 'callbackId'),
        ...(s(b, 'ts') ? { message: { channelId: s(b, 'channel'), ts: s(b, 'ts') } } : {}),
      });
      return delivery(r);
    }),
  );

  router.post(
    '/operator/api/message-app',
    act(async (b) => {
      const u = userIn(b);
      const text = s(b, 'text').trim();
      if (!text) throw new SlackApiError('no_text');
      return { ts: (await sandbox.messageApp({ teamId: u.teamId, userId: u.id, text })).ts };
    }),
  );

  router.post(
    '/operator/api/open-home',
    act(async (b) => {
      const u = userIn(b);
      return delivery(await sandbox.openAppHome({ teamId: u.teamId, userId: u.id, tab: s(b, 'tab') === 'messages' ? 'messages' : 'home' }));
    }),
  );

  router.post(
    '/operator/api/upload',
    act((b) => {
      const u = userIn(b);
      const c = channelIn(b);
      if (!c.members.includes(u.id)) throw new SlackApiError('not_in_channel');
      const name = s(b, 'name') || 'file';
      const bytes = Buffer.from(s(b, 'contentBase64'), 'base64');
      const file = {
        id: state.nextId('F'),
        teamId: c.teamId,
        user: u.id,
        name,
        title: name,
        mimetype: mimeOf(name),
        filetype: extOf(name),
        size: bytes.length,
        declaredLength: bytes.length,
        created: Math.floor(Date.now() / 1000),
        contentBase64: bytes.toString('base64'),
        uploaded: true,
        completed: true,
        channels: [c.id],
        uploadToken: '',
      };
      state.data.files.push(file);
      const m = postMessage(ctx, {
        teamId: c.teamId,
        channel: c,
        user: u.id,
        text: s(b, 'comment'),
        threadTs: s(b, 'threadTs') || undefined,
        files: [file.id],
      });
      return { ts: m.ts, file: file.id };
    }),
  );

  router.post(
    '/operator/api/dismiss',
    act((b) => {
      state.data.ephemerals = state.data.ephemerals.filter((e) => e.id !== s(b, 'id'));
      state.changed();
    }),
  );

  router.post(
    '/operator/api/uninstall',
    act((b) => {
      if (!uninstallApp(ctx, s(b, 'team'))) throw new SlackApiError('app_not_installed');
    }),
  );

  return router;
}
