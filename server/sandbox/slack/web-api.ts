// The Web API: POST {baseUrl}/api/<method>, form-encoded or JSON, token as a Bearer header or a `token` field.
// Answers are Slack's: HTTP 200 with { ok: true, … } or { ok: false, error, … }; HTTP 429 with Retry-After
// when rate limited.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { emojiFor } from '../../emoji';
import {
  archiveChannel,
  createChannel,
  deleteMessage,
  installApp,
  joinChannel,
  leaveChannel,
  postMessage,
  renameChannel,
  revokeToken,
  SlackApiError,
  setTopic,
  unarchiveChannel,
  uninstallApp,
  updateMessage,
} from './ops';
import type { PresentContext } from './present';
import { channelObject, fileObject, messageObject, teamObject, userObject, viewObject } from './present';
import type { RateLimiter } from './rate-limits';
import { methodScopes, missingScope } from './scopes';
import type { Sender } from './sender';
import { isRecord } from './sender';
import type { TokenInfo } from './state';
import type { Channel, SandboxFile, SandboxUser, Workspace } from './types';
import { checkView, openModal, publishHome, pushModal, updateView, useTrigger } from './views';

export interface AppCredentials {
  clientId: string;
  clientSecret: string;
  appId: string;
  name: string;
}

type Args = Record<string, unknown>;

interface Call {
  args: Args;
  auth: TokenInfo;
  ws: Workspace;
}

type Handler = (call: Call) => Record<string, unknown>;

const MAX_TEXT = 40_000;
const MAX_BLOCKS = 50;
/** Distinct emoji on one message (Slack's limit). */
const MAX_REACTIONS = 50;

export function webApiRouter(ctx: PresentContext, sender: Sender, app: AppCredentials, limiter: RateLimiter | null): Router {
  const router = express.Router();
  const { state } = ctx;
  router.use('/api', express.urlencoded({ extended: false, limit: '5mb' }), express.json({ limit: '5mb' }));

  // ---- argument helpers --------------------------------------------------------------------------

  const str = (args: Args, name: string): string | undefined => {
    const v = args[name];
    if (v === undefined || v === null || v === '') return undefined;
    return String(v);
  };
  const required = (args: Args, name: string): string => {
    const v = str(args, name);
    if (v === undefined)
      throw new SlackApiError('invalid_arguments', { response_metadata: { messages: [`[ERROR] missing required field: ${name}`] } });
    return v;
  };
  const bool = (args: Args, name: string): boolean => {
    const v = args[name];
    return v === true || v === 'true' || v === '1' || v === 1;
  };
  const jsonArg = (args: Args, name: string, errorCode = 'invalid_arguments'): unknown => {
    const v = args[name];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      throw new SlackApiError(errorCode, { response_metadata: { messages: [`[ERROR] ${name} must be valid JSON`] } });
    }
  };
  const limitArg = (args: Args, dflt: number, max: number): number => {
    const raw = str(args, 'limit');
    if (raw === undefined) return dflt;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new SlackApiError('invalid_limit');
    if (n === 0) return dflt;
    return Math.min(n, max);
  };
  const page = <T>(items: T[], args: Args, dflt: number, max: number): { items: T[]; next: string } => {
    const limit = limitArg(args, dflt, max);
    const cursor = str(args, 'cursor');
    let start = 0;
    if (cursor) {
      const decoded = Buffer.from(cursor, 'base64').toString('utf8');
      const m = /^next:(\d+)$/.exec(decoded);
      if (!m) throw new SlackApiError('invalid_cursor');
      start = Number(m[1]);
    }
    const slice = items.slice(start, start + limit);
    const next = start + limit < items.length ? Buffer.from(`next:${start + limit}`).toString('base64') : '';
    return { items: slice, next };
  };

  const channelArg = (call: Call, name = 'channel'): Channel => {
    const id = required(call.args, name);
    const c = state.channel(id) ?? (id.startsWith('#') ? state.channelByName(call.ws.id, id.slice(1)) : undefined);
    if (!c || c.teamId !== call.ws.id) throw new SlackApiError('channel_not_found');
    // Private channels are invisible to non-members.
    if (c.isPrivate && !c.members.includes(call.auth.userId)) throw new SlackApiError('channel_not_found');
    return c;
  };
  const postTarget = (call: Call): Channel => {
    const raw = required(call.args, 'channel');
    let c = state.channel(raw);
    if (!c) {
      const name = raw.replace(/^#/, '');
      c = state.channelByName(call.ws.id, name);
    }
    if (!c || c.teamId !== call.ws.id || (c.isPrivate && !c.members.includes(call.auth.userId)))
      throw new SlackApiError('channel_not_found');
    return c;
  };
  const mustBeMember = (call: Call, c: Channel): void => {
    if (!c.members.includes(call.auth.userId)) throw new SlackApiError('not_in_channel');
  };
  const userArg = (call: Call, name = 'user'): SandboxUser => {
    const id = required(call.args, name);
    const u = state.user(id);
    if (!u || u.teamId !== call.ws.id) throw new SlackApiError('user_not_found');
    return u;
  };
  const messageBody = (args: Args): { text: string; blocks?: unknown[]; attachments?: unknown[] } => {
    const text = str(args, 'text') ?? '';
    const blocks = jsonArg(args, 'blocks', 'invalid_blocks_format');
    const attachments = jsonArg(args, 'attachments', 'invalid_attachments');
    if (blocks !== undefined) {
      if (!Array.isArray(blocks) || blocks.some((b) => !isRecord(b) || typeof b.type !== 'string'))
        throw new SlackApiError('invalid_blocks');
      if (blocks.length > MAX_BLOCKS) throw new SlackApiError('invalid_blocks');
    }
    if (attachments !== undefined && !Array.isArray(attachments)) throw new SlackApiError('invalid_attachments');
    if (Array.isArray(attachments) && attachments.length > 100) throw new SlackApiError('too_many_attachments');
    if (text.length > MAX_TEXT) throw new SlackApiError('msg_too_long');
    const hasBlocks = Array.isArray(blocks) && blocks.length > 0;
    const hasAttachments = Array.isArray(attachments) && attachments.length > 0;
    if (!text && !hasBlocks && !hasAttachments) throw new SlackApiError('no_text');
    return {
      text,
      blocks: hasBlocks ? (blocks as unknown[]) : undefined,
      attachments: hasAttachments ? (attachments as unknown[]) : undefined,
    };
  };
  const withEmail = (auth: TokenInfo) => auth.scopes.includes('users:read.email');
  // Message metadata: { event_type, event_payload }, an object or its JSON (form-encoded calls send JSON).
  const metadataArg = (args: Args): Record<string, unknown> | undefined => {
    const v = jsonArg(args, 'metadata', 'invalid_metadata_format');
    if (v === undefined) return undefined;
    if (!isRecord(v)) throw new SlackApiError('invalid_metadata_format');
    if (typeof v.event_type !== 'string' || v.event_type === '' || !isRecord(v.event_payload))
      throw new SlackApiError('invalid_metadata_schema');
    return { event_type: v.event_type, event_payload: v.event_payload };
  };

  // ---- methods -----------------------------------------------------------------------------------

  const methods: Record<string, Handler> = {
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
      checkClient(str(args, 'client_id'), str(args, 'client_secret'));
      uninstallApp(ctx, ws.id);
      return {};
    },

    'team.info': ({ args, ws }) => {
      const team = str(args, 'team');
      if (team && team !== ws.id) throw new SlackApiError('team_not_found');
      return { team: teamObject(ws) };
    },

    'conversations.list': (call) => {
      const types = (str(call.args, 'types') ?? 'public_channel').split(',').map((t) => t.trim());
      const excludeArchived = bool(call.args, 'exclude_archived');
      const all = state
        .channelsOf(call.ws.id)
        .filter((c) =>
          c.isPrivate ? types.includes('private_channel') && c.members.includes(call.auth.userId) : types.includes('public_channel'),
        )
        .filter((c) => !(excludeArchived && c.isArchived));
      const { items, next } = page(all, call.args, 100, 1000);
      return { channels: items.map((c) => channelObject(c, call.auth.userId)), response_metadata: { next_cursor: next } };
    },

    'conversations.info': (call) => {
      const c = channelArg(call);
      const out = channelObject(c, call.auth.userId);
      if (!bool(call.args, 'include_num_members')) delete out.num_members;
      return { channel: out };
    },

    'conversations.members': (call) => {
      const c = channelArg(call);
      const { items, next } = page(c.members, call.args, 100, 1000);
      return { members: items, response_metadata: { next_cursor: next } };
    },

    'conversations.create': (call) => {
      const name = str(call.args, 'name');
      const c = createChannel(ctx, call.ws.id, name ?? '', call.auth.userId, bool(call.args, 'is_private'));
      return { channel: channelObject(c, call.auth.userId) };
    },

    'conversations.join': (call) => {
      const c = channelArg(call);
      if (c.isPrivate) throw new SlackApiError('method_not_supported_for_channel_type');
      const joined = joinChannel(ctx, c, call.auth.userId);
      return {
        channel: channelObject(c, call.auth.userId),
        ...(joined ? {} : { warning: 'already_in_channel', response_metadata: { warnings: ['already_in_channel'] } }),
      };
    },

    'conversations.invite': (call) => {
      const c = channelArg(call);
      if (c.isArchived) throw new SlackApiError('is_archived');
      mustBeMember(call, c);
      const ids = required(call.args, 'users')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      if (ids.length > 1000) throw new SlackApiError('too_many_users');
      for (const id of ids) {
        const u = state.user(id);
        if (!u || u.teamId !== call.ws.id) throw new SlackApiError('user_not_found');
        if (id === call.auth.userId) throw new SlackApiError('cant_invite_self');
        if (c.members.includes(id))
          throw new SlackApiError('already_in_channel', { errors: [{ user: id, ok: false, error: 'already_in_channel' }] });
      }
      for (const id of ids) joinChannel(ctx, c, id, call.auth.userId);
      return { channel: channelObject(c, call.auth.userId) };
    },

    'conversations.leave': (call) => {
      const c = channelArg(call);
      if (c.isGeneral) throw new SlackApiError('cant_leave_general');
      if (!c.members.includes(call.auth.userId)) return { not_in_channel: true };
      leaveChannel(ctx, c, call.auth.userId);
      return {};
    },

    'users.conversations': (call) => {
      const userId = str(call.args, 'user') ?? call.auth.userId;
      const types = (str(call.args, 'types') ?? 'public_channel').split(',').map((t) => t.trim());
      const excludeArchived = bool(call.args, 'exclude_archived');
      const all = state
        .channelsOf(call.ws.id)
        .filter((c) => c.members.includes(userId))
        .filter((c) =>
          c.isPrivate ? types.includes('private_channel') && c.members.includes(call.auth.userId) : types.includes('public_channel'),
        )
        .filter((c) => !(excludeArchived && c.isArchived));
      const { items, next } = page(all, call.args, 100, 1000);
      return { channels: items.map((c) => channelObject(c, null)), response_metadata: { next_cursor: next } };
    },

    'conversations.rename': (call) => {
      const c = channelArg(call);
      mustBeMember(call, c);
      if (c.isArchived) throw new SlackApiError('is_archived');
      renameChannel(ctx, c, str(call.args, 'name') ?? '');
      return { channel: channelObject(c, call.auth.userId) };
    },

    'conversations.archive': (call) => {
      const c = channelArg(call);
      if (c.isArchived) throw new SlackApiError('already_archived');
      mustBeMember(call, c);
      archiveChannel(ctx, c, call.auth.userId);
      return {};
    },

    'conversations.unarchive': (call) => {
      const c = channelArg(call);
      unarchiveChannel(ctx, c, call.auth.userId);
      return {};
    },

    'conversations.setTopic': (call) => {
      const c = channelArg(call);
      mustBeMember(call, c);
      const topic = str(call.args, 'topic') ?? '';
      if (topic.length > 250) throw new SlackApiError('too_long');
      setTopic(ctx, c, call.auth.userId, topic);
      return { channel: channelObject(c, call.auth.userId) };
    },

    'conversations.history': (call) => {
      const c = channelArg(call);
      if (call.auth.kind === 'bot') mustBeMember(call, c);
      const latest = str(call.args, 'latest');
      const oldest = str(call.args, 'oldest');
      const inclusive = bool(call.args, 'inclusive');
      const msgs = state
        .channelMessages(c.id)
        .filter((m) => !latest || (inclusive ? Number(m.ts) <= Number(latest) : Number(m.ts) < Number(latest)))
        .filter((m) => !oldest || (inclusive ? Number(m.ts) >= Number(oldest) : Number(m.ts) > Number(oldest)))
        .reverse();
      const { items, next } = page(msgs, call.args, 100, 999);
      const metadata = bool(call.args, 'include_all_metadata');
      return {
        messages: items.map((m) => messageObject(ctx, m, { metadata })),
        has_more: next !== '',
        pin_count: 0,
        channel_actions_ts: null,
        channel_actions_count: 0,
        response_metadata: { next_cursor: next },
      };
    },

    'conversations.replies': (call) => {
      const c = channelArg(call);
      if (call.auth.kind === 'bot') mustBeMember(call, c);
      const ts = required(call.args, 'ts');
      const m = state.message(c.id, ts);
      if (!m) throw new SlackApiError('thread_not_found');
      const root = m.threadTs && m.threadTs !== m.ts ? state.message(c.id, m.threadTs) : m;
      if (!root) throw new SlackApiError('thread_not_found');
      // oldest/latest narrow the replies; the parent always comes first, as at Slack.
      const latest = str(call.args, 'latest');
      const oldest = str(call.args, 'oldest');
      const inclusive = bool(call.args, 'inclusive');
      const replies = state
        .replies(c.id, root.ts)
        .filter((x) => !latest || (inclusive ? Number(x.ts) <= Number(latest) : Number(x.ts) < Number(latest)))
        .filter((x) => !oldest || (inclusive ? Number(x.ts) >= Number(oldest) : Number(x.ts) > Number(oldest)));
      const all = [root, ...replies];
      const { items, next } = page(all, call.args, 1000, 1000);
      const metadata = bool(call.args, 'include_all_metadata');
      return {
        messages: items.map((x) => messageObject(ctx, x, { metadata })),
        has_more: next !== '',
        response_metadata: { next_cursor: next },
      };
    },

    'chat.postMessage': (call) => {
      const c = postTarget(call);
      if (c.isArchived) throw new SlackApiError('is_archived');
      if (!c.members.includes(call.auth.userId)) {
        const publicWrite = call.auth.kind === 'bot' && call.auth.scopes.includes('chat:write.public') && !c.isPrivate;
        if (!publicWrite) throw new SlackApiError('not_in_channel');
      }
      const body = messageBody(call.args);
      const username = str(call.args, 'username');
      const iconUrl = str(call.args, 'icon_url');
      const iconEmoji = str(call.args, 'icon_emoji');
      if ((username || iconUrl || iconEmoji) && call.auth.kind === 'bot' && !call.auth.scopes.includes('chat:write.customize')) {
        throw new SlackApiError('missing_scope', { needed: 'chat:write.customize', provided: call.auth.scopes.join(',') });
      }
      const m = postMessage(ctx, {
        teamId: call.ws.id,
        channel: c,
        user: call.auth.userId,
        ...body,
        threadTs: str(call.args, 'thread_ts'),
        replyBroadcast: bool(call.args, 'reply_broadcast'),
        username: call.auth.kind === 'bot' ? username : undefined,
        iconUrl: call.auth.kind === 'bot' ? iconUrl : undefined,
        iconEmoji: call.auth.kind === 'bot' ? iconEmoji : undefined,
        metadata: metadataArg(call.args),
      });
      return { channel: c.id, ts: m.ts, message: messageObject(ctx, m) };
    },

    'chat.update': (call) => {
      const c = channelArg(call);
      const ts = required(call.args, 'ts');
      const m = state.message(c.id, ts);
      if (!m || m.tombstone) throw new SlackApiError('message_not_found');
      if (m.user !== call.auth.userId) throw new SlackApiError('cant_update_message');
      const text = str(call.args, 'text');
      const blocks = jsonArg(call.args, 'blocks', 'invalid_blocks_format');
      const attachments = jsonArg(call.args, 'attachments', 'invalid_attachments');
      if (text === undefined && blocks === undefined && attachments === undefined) throw new SlackApiError('no_text');
      if (blocks !== undefined && (!Array.isArray(blocks) || blocks.length > MAX_BLOCKS)) throw new SlackApiError('invalid_blocks');
      if ((text ?? '').length > MAX_TEXT) throw new SlackApiError('msg_too_long');
      updateMessage(ctx, m, {
        text: text ?? (blocks !== undefined ? '' : undefined),
        blocks: blocks as unknown[] | undefined,
        attachments: attachments as unknown[] | undefined,
        editor: call.auth.userId,
      });
      return { channel: c.id, ts: m.ts, text: m.text, message: messageObject(ctx, m) };
    },

    // As Slack: the caller must see the channel, the emoji must exist, and the same person reacts with one emoji once.
    'reactions.add': (call) => {
      const c = channelArg(call);
      if (!c.members.includes(call.auth.userId)) throw new SlackApiError('not_in_channel');
      const ts = required(call.args, 'timestamp');
      const name = required(call.args, 'name').replace(/^:|:$/g, '');
      const m = state.message(c.id, ts);
      if (!m || m.tombstone) throw new SlackApiError('message_not_found');
      if (!emojiFor(name)) throw new SlackApiError('invalid_name');
      const reactions = m.reactions ?? [];
      const existing = reactions.find((r) => r.name === name);
      if (existing?.users.includes(call.auth.userId)) throw new SlackApiError('already_reacted');
      if (!existing && reactions.length >= MAX_REACTIONS) throw new SlackApiError('too_many_reactions');
      if (existing) existing.users.push(call.auth.userId);
      else reactions.push({ name, users: [call.auth.userId] });
      m.reactions = reactions;
      state.changed();
      return {};
    },

    'chat.delete': (call) => {
      const c = channelArg(call);
      const ts = required(call.args, 'ts');
      const m = state.message(c.id, ts);
      if (!m || m.tombstone) throw new SlackApiError('message_not_found');
      const caller = state.user(call.auth.userId);
      if (m.user !== call.auth.userId && !(call.auth.kind === 'user' && caller?.isAdmin)) throw new SlackApiError('cant_delete_message');
      deleteMessage(ctx, m);
      return { channel: c.id, ts };
    },

    'chat.postEphemeral': (call) => {
      const c = postTarget(call);
      if (c.isArchived) throw new SlackApiError('is_archived');
      const user = userArg(call);
      if (!c.members.includes(call.auth.userId)) throw new SlackApiError('not_in_channel');
      if (!c.members.includes(user.id)) throw new SlackApiError('user_not_in_channel');
      const body = messageBody(call.args);
      const messageTs = sender.recordEphemeral({
        teamId: call.ws.id,
        channel: c.id,
        user: user.id,
        text: body.text,
        blocks: body.blocks,
        threadTs: str(call.args, 'thread_ts'),
        from: 'chat.postEphemeral',
      });
      return { message_ts: messageTs };
    },

    'chat.getPermalink': (call) => {
      const c = channelArg(call);
      const ts = required(call.args, 'message_ts');
      const m = state.message(c.id, ts);
      if (!m) throw new SlackApiError('message_not_found');
      const p = `p${ts.replace('.', '')}`;
      const thread = m.threadTs && m.threadTs !== m.ts ? `?thread_ts=${m.threadTs}&cid=${c.id}` : '';
      return { channel: c.id, permalink: `${call.ws.url}archives/${c.id}/${p}${thread}` };
    },

    'users.info': (call) => {
      const u = userArg(call);
      return { user: userObject(u, withEmail(call.auth)) };
    },

    'users.list': (call) => {
      const all = state.usersOf(call.ws.id);
      const { items, next } = page(all, call.args, 100, 1000);
      return {
        members: items.map((u) => userObject(u, withEmail(call.auth))),
        cache_ts: Math.floor(Date.now() / 1000),
        response_metadata: { next_cursor: next },
      };
    },

    'users.lookupByEmail': (call) => {
      const email = required(call.args, 'email');
      const u = state.usersOf(call.ws.id).find((x) => x.email === email);
      if (!u) throw new SlackApiError('users_not_found');
      return { user: userObject(u, true) };
    },

    'users.getPresence': (call) => {
      const id = str(call.args, 'user') ?? call.auth.userId;
      const u = state.user(id);
      if (!u || u.teamId !== call.ws.id) throw new SlackApiError('user_not_found');
      if (id === call.auth.userId) {
        return {
          presence: u.presence,
          online: u.presence === 'active',
          auto_away: false,
          manual_away: u.presence === 'away',
          connection_count: u.presence === 'active' ? 1 : 0,
          last_activity: Math.floor(Date.now() / 1000),
        };
      }
      return { presence: u.presence };
    },

    'views.open': (call) => {
      const { userId } = useTrigger(ctx, call.args.trigger_id, call.ws.id);
      const def = checkView(jsonArg(call.args, 'view'), 'modal');
      return { view: viewObject(ctx, openModal(ctx, call.ws.id, userId, def)) };
    },

    'views.push': (call) => {
      const { userId } = useTrigger(ctx, call.args.trigger_id, call.ws.id);
      const def = checkView(jsonArg(call.args, 'view'), 'modal');
      return { view: viewObject(ctx, pushModal(ctx, call.ws.id, userId, def)) };
    },

    'views.update': (call) => {
      const viewId = str(call.args, 'view_id');
      const externalId = str(call.args, 'external_id');
      if (!viewId && !externalId)
        throw new SlackApiError('invalid_arguments', {
          response_metadata: { messages: ['[ERROR] either view_id or external_id is required'] },
        });
      const view = viewId ? state.view(viewId) : state.data.views.find((v) => v.externalId === externalId && v.teamId === call.ws.id);
      if (!view || view.teamId !== call.ws.id) throw new SlackApiError('not_found');
      const def = checkView(jsonArg(call.args, 'view'), 'any');
      return { view: viewObject(ctx, updateView(ctx, view, def, call.args.hash)) };
    },

    'views.publish': (call) => {
      const user = userArg(call, 'user_id');
      const def = checkView(jsonArg(call.args, 'view'), 'home');
      return { view: viewObject(ctx, publishHome(ctx, call.ws.id, user.id, def, call.args.hash)) };
    },

    'files.getUploadURLExternal': (call) => {
      const filename = required(call.args, 'filename');
      const length = Number(required(call.args, 'length'));
      if (!Number.isInteger(length) || length < 0)
        throw new SlackApiError('invalid_arguments', { response_metadata: { messages: ['[ERROR] length must be a positive integer'] } });
      if (length > 1024 * 1024 * 1024) throw new SlackApiError('file_size_too_large');
      const file: SandboxFile = {
        id: state.nextId('F'),
        teamId: call.ws.id,
        user: call.auth.userId,
        name: filename,
        title: filename,
        mimetype: mimeOf(filename),
        filetype: extOf(filename),
        size: length,
        declaredLength: length,
        created: Math.floor(Date.now() / 1000),
        uploaded: false,
        completed: false,
        altText: str(call.args, 'alt_txt') ?? str(call.args, 'alt_text'),
        channels: [],
        uploadToken: randomBytes(16).toString('hex'),
      };
      state.data.files.push(file);
      state.changed();
      return { upload_url: `${ctx.baseUrl}/files-upload/${file.id}/${file.uploadToken}`, file_id: file.id };
    },

    'files.completeUploadExternal': (call) => {
      const list = jsonArg(call.args, 'files');
      if (!Array.isArray(list) || list.length === 0)
        throw new SlackApiError('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: files'] } });
      const channelId = str(call.args, 'channel_id') ?? str(call.args, 'channels')?.split(',')[0];
      const threadTs = str(call.args, 'thread_ts');
      const comment = str(call.args, 'initial_comment');
      const files = list.map((entry) => {
        const id = isRecord(entry) ? String(entry.id ?? '') : '';
        const f = state.file(id);
        if (!f || f.teamId !== call.ws.id || f.user !== call.auth.userId) throw new SlackApiError('file_not_found');
        if (!f.uploaded) throw new SlackApiError('file_upload_not_found');
        if (f.completed) throw new SlackApiError('file_already_completed');
        if (isRecord(entry) && typeof entry.title === 'string' && entry.title) f.title = entry.title;
        return f;
      });
      let channel: Channel | undefined;
      if (channelId) {
        channel = state.channel(channelId);
        if (!channel || channel.teamId !== call.ws.id) throw new SlackApiError('channel_not_found');
        if (channel.isArchived) throw new SlackApiError('is_archived');
        if (!channel.members.includes(call.auth.userId)) throw new SlackApiError('not_in_channel');
      }
      for (const f of files) {
        f.completed = true;
        if (channel) f.channels.push(channel.id);
      }
      state.changed();
      if (channel) {
        postMessage(ctx, {
          teamId: call.ws.id,
          channel,
          user: call.auth.userId,
          text: comment ?? '',
          threadTs,
          files: files.map((f) => f.id),
        });
      }
      return { files: files.map((f) => ({ id: f.id, title: f.title })) };
    },

    'files.info': (call) => {
      const id = required(call.args, 'file');
      const f = state.file(id);
      if (!f || f.teamId !== call.ws.id || !f.completed) throw new SlackApiError('file_not_found');
      const visible =
        f.user === call.auth.userId ||
        f.channels.some((cid) => state.channel(cid)?.members.includes(call.auth.userId) || !state.channel(cid)?.isPrivate);
      if (!visible) throw new SlackApiError('file_not_found');
      return { file: fileObject(ctx, f), comments: [], response_metadata: { next_cursor: '' } };
    },
  };

  function checkClient(clientId: string | undefined, clientSecret: string | undefined): void {
    if (clientId !== app.clientId) throw new SlackApiError('invalid_client_id');
    if (!clientSecret || !safeEqual(clientSecret, app.clientSecret)) throw new SlackApiError('bad_client_secret');
  }

  // ---- oauth.v2.access needs no token: the app authenticates with its client id and secret ---------

  const oauthAccess = (req: Request, args: Args): Record<string, unknown> => {
    let clientId = str(args, 'client_id');
    let clientSecret = str(args, 'client_secret');
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const [id, secret] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
      clientId = clientId ?? id;
      clientSecret = clientSecret ?? secret;
    }
    checkClient(clientId, clientSecret);
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

  // ---- dispatch ----------------------------------------------------------------------------------

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
      if (fault.retryAfter !== undefined) res.setHeader('Retry-After', String(fault.retryAfter));
      return reply(fault.status, { ok: false, error: fault.status === 429 ? 'ratelimited' : 'fatal_error' });
    }
    try {
      if (method === 'oauth.v2.access') return reply(200, { ok: true, ...oauthAccess(req, args) });
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

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
};

export function extOf(name: string): string {
  const m = /\.([a-z0-9]+)$/i.exec(name);
  return m ? m[1].toLowerCase() : 'binary';
}

export function mimeOf(name: string): string {
  return MIME[extOf(name)] ?? 'application/octet-stream';
}
