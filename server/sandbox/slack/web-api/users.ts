/**
 * The Web API's users.*: people, their channels, e-mail lookup and presence.
 */
import { SlackApiError } from '../ops';
import { channelObject, userObject } from '../present';
import type { MethodDeps, MethodTable } from './args';
import { bool, page, required, str, userArg, withEmail } from './args';

export function userMethods({ ctx }: MethodDeps): MethodTable {
  const { state } = ctx;
  return {
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

    'users.info': (call) => {
      const u = userArg(state, call);
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
  };
}
