import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import { neededScopes, type ScopeRef, type ScopeStatus, scopeStatus } from '../shared/slack-scopes';
import { effectivePlanOf } from './planFeature';
import { grantedScopes } from './slackInstallations';

/** The scopes a widget needs (its plan, its options, legacy or not) against what its team's installation holds. */
export async function widgetScopeStatus(models: Models, ce: ChatEndpointDocument): Promise<ScopeStatus> {
  const plan = await effectivePlanOf(models, ce.accountId);
  const needed = neededScopes({
    planAllowsBots: plan?.bots ?? false,
    requestChatWriteUserScope: ce.requestChatWriteUserScope,
    oauthV1: ce.OauthV1,
  });
  const inst = ce.slackTeamId ? await models.Installation.findOne({ teamId: ce.slackTeamId }) : null;
  return scopeStatus(needed, grantedScopes(inst, ce.slackMainUser));
}

/** What an upgrade asks for: the missing scopes, or with nothing missing the whole needed set (how a legacy install migrates). */
export function upgradeScopes(status: ScopeStatus): { bot: string[]; user: string[] } {
  const wanted: ScopeRef[] = status.missing.length > 0 ? status.missing : status.scopes;
  const of = (type: ScopeRef['type']) => wanted.filter((s) => s.type === type).map((s) => s.scope);
  return { bot: of('bot'), user: of('user') };
}
