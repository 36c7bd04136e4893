/**
 * The Web API's chat.*: posting (as the app also in a channel it has not joined, with chat:write.public), updating
 * and deleting messages, ephemerals and permalinks.
 */
import { deleteMessage, postMessage, SlackApiError, updateMessage } from '../ops';
import { messageObject } from '../present';
import type { MethodDeps, MethodTable } from './args';
import { bool, channelArg, jsonArg, MAX_BLOCKS, MAX_TEXT, messageBody, metadataArg, postTarget, required, str, userArg } from './args';

export function chatMethods({ ctx, sender }: MethodDeps): MethodTable {
  const { state } = ctx;
  return {
    'chat.postMessage': (call) => {
      const c = postTarget(state, call);
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
      const c = channelArg(state, call);
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

    'chat.delete': (call) => {
      const c = channelArg(state, call);
      const ts = required(call.args, 'ts');
      const m = state.message(c.id, ts);
      if (!m || m.tombstone) throw new SlackApiError('message_not_found');
      const caller = state.user(call.auth.userId);
      if (m.user !== call.auth.userId && !(call.auth.kind === 'user' && caller?.isAdmin)) throw new SlackApiError('cant_delete_message');
      deleteMessage(ctx, m);
      return { channel: c.id, ts };
    },

    'chat.postEphemeral': (call) => {
      const c = postTarget(state, call);
      if (c.isArchived) throw new SlackApiError('is_archived');
      const user = userArg(state, call);
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
      const c = channelArg(state, call);
      const ts = required(call.args, 'message_ts');
      const m = state.message(c.id, ts);
      if (!m) throw new SlackApiError('message_not_found');
      const p = `p${ts.replace('.', '')}`;
      const thread = m.threadTs && m.threadTs !== m.ts ? `?thread_ts=${m.threadTs}&cid=${c.id}` : '';
      return { channel: c.id, permalink: `${call.ws.url}archives/${c.id}/${p}${thread}` };
    },
  };
}
