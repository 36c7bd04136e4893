/**
 * Slack scopes: what Parley asks for when it is installed, and what each widget needs (spec section 6),
 * compared with what the stored installation was granted.
 */

export type ScopeType = 'bot' | 'user';
export type ScopeRef = { scope: string; type: ScopeType };

/** Bot scopes asked for when Parley is added to a workspace (sign-up with Slack, Add to Slack, main user swap). */
export const INSTALL_BOT_SCOPES = [
  'channels:history',
  'channels:join',
  'channels:manage',
  'channels:read',
  'chat:write',
  'chat:write.customize',
  'commands',
  'files:read',
  'files:write',
  'im:history',
  'reactions:write',
  'team:read',
  'users:read',
  'users:read.email',
] as const;

/** User scopes asked of the person who installs: the main user, who creates channels. */
export const INSTALL_USER_SCOPES = ['channels:history', 'channels:write'] as const;

/** What the permissions page checks for a current (OAuth v2) installation. */
const MODERN_BOT = ['commands', 'channels:history', 'files:read', 'files:write'];
const MODERN_USER = ['channels:history'];
/** Legacy (OauthV1) installs must re-authorise with this wider fixed set. */
const LEGACY_BOT = ['channels:manage', 'channels:read', 'channels:join', 'chat:write', 'chat:write.customize', 'users:read.email'];
const LEGACY_USER = ['channels:write'];

export type NeedsInput = {
  /** The account's plan allows bots (users:read is needed to tell bots from people). */
  planAllowsBots: boolean;
  /** The widget asked for old-channel cleanup (needs chat:write on behalf of the main user). */
  requestChatWriteUserScope: boolean;
  oauthV1: boolean;
};

/** The scopes a widget needs, bot ones first, in a stable order. */
export function neededScopes(input: NeedsInput): ScopeRef[] {
  const bot = [...MODERN_BOT];
  if (input.planAllowsBots) bot.splice(2, 0, 'users:read');
  const user = [...MODERN_USER];
  if (input.requestChatWriteUserScope) user.push('chat:write');
  if (input.oauthV1) {
    for (const s of LEGACY_BOT) if (!bot.includes(s)) bot.push(s);
    for (const s of LEGACY_USER) if (!user.includes(s)) user.push(s);
  }
  return [...bot.map((scope) => ({ scope, type: 'bot' as const })), ...user.map((scope) => ({ scope, type: 'user' as const }))];
}

export type ScopeStatus = {
  scopes: (ScopeRef & { granted: boolean })[];
  missing: ScopeRef[];
  allGood: boolean;
};

/** Needed scopes marked granted or not against what the installation holds. */
export function scopeStatus(needed: ScopeRef[], granted: { bot: string[]; user: string[] }): ScopeStatus {
  const scopes = needed.map((n) => ({ ...n, granted: granted[n.type].includes(n.scope) }));
  const missing = scopes.filter((s) => !s.granted).map(({ scope, type }) => ({ scope, type }));
  return { scopes, missing, allGood: missing.length === 0 };
}

/** Splits a comma- or space-separated scope list as Slack sends it. */
export function splitScopes(list: string | undefined | null): string[] {
  return (list ?? '')
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
