/**
 * Parley's installations in Slack workspaces: saving what an OAuth code exchange gave, and marking
 * them revoked when Slack says the app was removed or its tokens revoked. Nothing is ever deleted,
 * so a re-installation brings every widget of the team back.
 */
import type { Models } from '../models';
import type { Installation, InstallationDocument } from '../models/Installation';

/** What Slack's OAuth answer grants: the installation's own fields, the user who authorised, a user token. */
export type GrantedInstallation = Pick<
  Installation,
  'teamId' | 'teamName' | 'url' | 'appId' | 'botToken' | 'botUserId' | 'botId' | 'botScopes'
> & {
  /** The Slack user who went through the authorisation. */
  authedUserId: string;
  /** Present when user scopes were asked for. */
  userToken?: { token: string; scopes: string[] };
};

/** One installation per team: created on first install, refreshed on every later one. */
export async function saveInstallation(models: Models, granted: GrantedInstallation): Promise<InstallationDocument> {
  const now = new Date();
  const existing = await models.Installation.findOne({ teamId: granted.teamId });
  const inst = existing ?? new models.Installation({ teamId: granted.teamId, installedAt: now, botToken: granted.botToken });
  const wasRevoked = existing?.revokedAt != null;
  inst.set({
    teamName: granted.teamName || inst.teamName,
    url: granted.url || inst.url,
    appId: granted.appId,
    botToken: granted.botToken,
    botUserId: granted.botUserId,
    botId: granted.botId,
    // Slack adds scopes to an installation; a token that was revoked starts over with what was just granted.
    botScopes: wasRevoked ? granted.botScopes : union(inst.botScopes, granted.botScopes),
    installerUserId: granted.authedUserId,
    revokedAt: null,
  });
  if (wasRevoked) inst.installedAt = now;
  if (granted.userToken) {
    const others = inst.userTokens.filter((t) => t.userId !== granted.authedUserId);
    inst.userTokens = [
      ...others,
      { userId: granted.authedUserId, token: granted.userToken.token, scopes: granted.userToken.scopes, revokedAt: null },
    ] as typeof inst.userTokens;
  }
  await inst.save();
  await models.ChatEndpoint.updateMany({ slackTeamId: granted.teamId }, { $set: { installationRevoked: false } });
  return inst;
}

/** The app was uninstalled or its bot token revoked: every widget of the team goes offline. */
export async function markInstallationRevoked(models: Models, teamId: string): Promise<void> {
  const now = new Date();
  await models.Installation.updateOne({ teamId, revokedAt: null }, { $set: { revokedAt: now } });
  await models.ChatEndpoint.updateMany({ slackTeamId: teamId }, { $set: { installationRevoked: true, status: 'offline' } });
}

/** Some users' tokens were revoked: their user scopes are gone. */
export async function markUserTokensRevoked(models: Models, teamId: string, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  const inst = await models.Installation.findOne({ teamId });
  if (!inst) return;
  const now = new Date();
  for (const t of inst.userTokens) if (userIds.includes(t.userId) && !t.revokedAt) t.revokedAt = now;
  await inst.save();
  await models.ChatEndpoint.updateMany({ slackTeamId: teamId, slackMainUser: { $in: userIds } }, { $set: { Scope: '' } });
}

/** Scopes the installation holds now: the bot's, and the live user token's of `userId`. */
export function grantedScopes(inst: InstallationDocument | null, userId: string): { bot: string[]; user: string[] } {
  if (!inst || inst.revokedAt) return { bot: [], user: [] };
  const userToken = inst.userTokens.find((t) => t.userId === userId && !t.revokedAt);
  return { bot: [...inst.botScopes], user: userToken ? [...userToken.scopes] : [] };
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}
