import { PaymentRequiredError, ValidationError } from '../errors';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { UserDocument } from '../models/User';
import { createWidget } from './createWidget';
import { effectivePlanOf } from './planFeature';

export const PLAN_LIMIT_ERROR = 'plan_limit';
export const NEW_WIDGET_FOR_TEAM_ERROR = 'error creating new widget, contact support';

/** Throws 402 plan_limit when the account already has as many widgets as its plan allows (0: unlimited). */
export async function assertBelowChannelLimit(models: Models, user: UserDocument): Promise<void> {
  const plan = await effectivePlanOf(models, user.accountId);
  if (!plan) throw new Error(`no plan for the account of user ${user.id}`);
  if (plan.maxChannels === 0) return;
  const count = await models.ChatEndpoint.countDocuments({ accountId: user.accountId });
  if (count >= plan.maxChannels) {
    throw new PaymentRequiredError(
      `Your ${plan.label} plan allows ${plan.maxChannels} channel${plan.maxChannels === 1 ? '' : 's'}. Upgrade to add another.`,
      PLAN_LIMIT_ERROR,
    );
  }
}

/** A new widget at Step 1, within the plan's limit. */
export async function newWidget(models: Models, user: UserDocument): Promise<ChatEndpointDocument> {
  await assertBelowChannelLimit(models, user);
  return createWidget(models, { accountId: user.accountId, userId: user._id });
}

/** A new widget in the Slack team of `existing` (a configured widget), at Step 2: the installation is reused. */
export async function newWidgetForTeam(models: Models, user: UserDocument, existing: ChatEndpointDocument): Promise<ChatEndpointDocument> {
  if (existing.Step !== 3 || !existing.slackTeamId) throw new ValidationError(NEW_WIDGET_FOR_TEAM_ERROR);
  await assertBelowChannelLimit(models, user);
  const ce = await createWidget(models, { accountId: user.accountId, userId: user._id });
  ce.set({
    Step: 2,
    slackTeamId: existing.slackTeamId,
    slackBaseUrl: existing.slackBaseUrl,
    slackTeamName: existing.slackTeamName,
    slackMainUser: existing.slackMainUser,
    slackMainUserName: existing.slackMainUserName,
    OauthV1: existing.OauthV1,
    BotScope: existing.BotScope,
    Scope: existing.Scope,
    installationRevoked: existing.installationRevoked,
  });
  return ce.save();
}
