/**
 * The Web API's reactions.add.
 */
import { emojiFor } from '../../../emoji';
import { SlackApiError } from '../ops';
import type { MethodDeps, MethodTable } from './args';
import { channelArg, required } from './args';

/** Distinct emoji on one message (Slack's limit). */
const MAX_REACTIONS = 50;

export function reactionMethods({ ctx }: MethodDeps): MethodTable {
  const { state } = ctx;
  return {
    // As Slack: the caller must see the channel, the emoji must exist, and the same person reacts with one emoji once.
    'reactions.add': (call) => {
      const c = channelArg(state, call);
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
  };
}
