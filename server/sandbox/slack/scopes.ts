// Required scopes per Web API method, from Slack's method reference. A token passes when it holds any one
// of the listed scopes for its token type; `needed` in the missing_scope error lists them comma-separated.
// An empty list means the method needs no scope (auth.test, views.*); `null` means the token type cannot call it.

export interface ScopeRule {
  bot: string[] | null;
  user: string[] | null;
}

const read = ['channels:read', 'groups:read', 'mpim:read', 'im:read'];
const history = ['channels:history', 'groups:history', 'mpim:history', 'im:history'];

export const methodScopes: Record<string, ScopeRule> = {
  'auth.test': { bot: [], user: [] },
  'auth.revoke': { bot: [], user: [] },
  'apps.uninstall': { bot: [], user: [] },
  'team.info': { bot: ['team:read'], user: ['team:read'] },
  'conversations.list': { bot: read, user: read },
  'conversations.info': { bot: read, user: read },
  'conversations.members': { bot: read, user: read },
  'conversations.create': { bot: ['channels:manage', 'groups:write'], user: ['channels:write', 'groups:write'] },
  'conversations.join': { bot: ['channels:join'], user: ['channels:write'] },
  'conversations.invite': { bot: ['channels:manage', 'groups:write'], user: ['channels:write', 'groups:write'] },
  'conversations.leave': { bot: ['channels:manage', 'groups:write'], user: ['channels:write', 'groups:write'] },
  'conversations.unarchive': { bot: ['channels:manage', 'groups:write'], user: ['channels:write', 'groups:write'] },
  'users.conversations': { bot: read, user: read },
  'conversations.rename': { bot: ['channels:manage', 'groups:write'], user: ['channels:write', 'groups:write'] },
  'conversations.archive': { bot: ['channels:manage', 'groups:write'], user: ['channels:write', 'groups:write'] },
  'conversations.setTopic': { bot: ['channels:manage', 'groups:write'], user: ['channels:write', 'groups:write'] },
  'conversations.history': { bot: history, user: history },
  'conversations.replies': { bot: history, user: history },
  'chat.postMessage': { bot: ['chat:write'], user: ['chat:write'] },
  'chat.update': { bot: ['chat:write'], user: ['chat:write'] },
  'chat.delete': { bot: ['chat:write'], user: ['chat:write'] },
  'chat.postEphemeral': { bot: ['chat:write'], user: ['chat:write'] },
  'chat.getPermalink': { bot: [], user: [] },
  'reactions.add': { bot: ['reactions:write'], user: ['reactions:write'] },
  'users.info': { bot: ['users:read'], user: ['users:read'] },
  'users.list': { bot: ['users:read'], user: ['users:read'] },
  'users.getPresence': { bot: ['users:read'], user: ['users:read'] },
  'users.lookupByEmail': { bot: ['users:read.email'], user: ['users:read.email'] },
  'views.open': { bot: [], user: [] },
  'views.push': { bot: [], user: [] },
  'views.update': { bot: [], user: [] },
  'views.publish': { bot: [], user: null },
  'files.getUploadURLExternal': { bot: ['files:write'], user: ['files:write'] },
  'files.completeUploadExternal': { bot: ['files:write'], user: ['files:write'] },
  'files.info': { bot: ['files:read'], user: ['files:read'] },
};

/** Returns the scopes `needed` when the token lacks them, or null when the call is allowed. */
export function missingScope(method: string, kind: 'bot' | 'user', granted: string[]): string[] | null {
  const rule = methodScopes[method];
  if (!rule) return null;
  const accepted = rule[kind];
  if (accepted === null) return ['bot'];
  if (accepted.length === 0) return null;
  return accepted.some((s) => granted.includes(s)) ? null : accepted;
}
