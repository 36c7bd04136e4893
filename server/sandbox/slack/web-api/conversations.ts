/**
 * The Web API's conversations.*: channels listed, read, created, joined, left, renamed and archived, members
 * invited, topics set, history and threads read.
 */
import { archiveChannel, createChannel, joinChannel, leaveChannel, renameChannel, SlackApiError, setTopic, unarchiveChannel } from '../ops';
import { channelObject, messageObject } from '../present';
import type { MethodDeps, MethodTable } from './args';
import { bool, channelArg, mustBeMember, page, required, str } from './args';

export function conversationMethods({ ctx }: MethodDeps): MethodTable {
  const { state } = ctx;
  return {
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
      const c = channelArg(state, call);
      const out = channelObject(c, call.auth.userId);
      if (!bool(call.args, 'include_num_members')) delete out.num_members;
      return { channel: out };
    },

    'conversations.members': (call) => {
      const c = channelArg(state, call);
      const { items, next } = page(c.members, call.args, 100, 1000);
      return { members: items, response_metadata: { next_cursor: next } };
    },

    'conversations.create': (call) => {
      const name = str(call.args, 'name');
      const c = createChannel(ctx, call.ws.id, name ?? '', call.auth.userId, bool(call.args, 'is_private'));
      return { channel: channelObject(c, call.auth.userId) };
    },

    'conversations.join': (call) => {
      const c = channelArg(state, call);
      if (c.isPrivate) throw new SlackApiError('method_not_supported_for_channel_type');
      const joined = joinChannel(ctx, c, call.auth.userId);
      return {
        channel: channelObject(c, call.auth.userId),
        ...(joined ? {} : { warning: 'already_in_channel', response_metadata: { warnings: ['already_in_channel'] } }),
      };
    },

    'conversations.invite': (call) => {
      const c = channelArg(state, call);
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
      const c = channelArg(state, call);
      if (c.isGeneral) throw new SlackApiError('cant_leave_general');
      if (!c.members.includes(call.auth.userId)) return { not_in_channel: true };
      leaveChannel(ctx, c, call.auth.userId);
      return {};
    },

    'conversations.rename': (call) => {
      const c = channelArg(state, call);
      mustBeMember(call, c);
      if (c.isArchived) throw new SlackApiError('is_archived');
      renameChannel(ctx, c, str(call.args, 'name') ?? '');
      return { channel: channelObject(c, call.auth.userId) };
    },

    'conversations.archive': (call) => {
      const c = channelArg(state, call);
      if (c.isArchived) throw new SlackApiError('already_archived');
      mustBeMember(call, c);
      archiveChannel(ctx, c, call.auth.userId);
      return {};
    },

    'conversations.unarchive': (call) => {
      const c = channelArg(state, call);
      unarchiveChannel(ctx, c, call.auth.userId);
      return {};
    },

    'conversations.setTopic': (call) => {
      const c = channelArg(state, call);
      mustBeMember(call, c);
      const topic = str(call.args, 'topic') ?? '';
      if (topic.length > 250) throw new SlackApiError('too_long');
      setTopic(ctx, c, call.auth.userId, topic);
      return { channel: channelObject(c, call.auth.userId) };
    },

    'conversations.history': (call) => {
      const c = channelArg(state, call);
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
      const c = channelArg(state, call);
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
  };
}
