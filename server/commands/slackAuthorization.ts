/**
 * What each Slack authorisation does once its code was exchanged and the installation saved:
 * sign-up with Slack, Add to Slack (setup step 1), main user swap, and the permissions upgrade.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { InstallationDocument } from '../models/Installation';
import type { UserDocument } from '../models/User';
import { TRIAL_DAYS } from '../shared/constants';
import { TRIAL_PLAN_STRIPE_ID } from '../shared/plans';
import { createWidget } from './createWidget';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The Slack side of an authorisation, as the callback learnt it. */
export type SlackAuthorizer = {
  teamId: string;
  teamName: string;
  url: string;
  userId: string;
  userName: string;
  /** Bot scopes the installation holds and user scopes of this user's token, comma-separated as widgets keep them. */
  botScope: string;
  userScope: string;
};

export function authorizerOf(inst: InstallationDocument, userId: string, userName: string): SlackAuthorizer {
  const userToken = inst.userTokens.find((t) => t.userId === userId && !t.revokedAt);
  return {
    teamId: inst.teamId,
    teamName: inst.teamName,
    url: inst.url,
    userId,
    userName,
    botScope: inst.botScopes.join(','),
    userScope: userToken ? userToken.scopes.join(',') : '',
  };
}

function linkToTeam(ce: ChatEndpointDocument, who: SlackAuthorizer): void {
  const sameTeam = ce.slackTeamId === who.teamId;
  ce.set({
    slackTeamId: who.teamId,
    slackTeamName: who.teamName,
    slackBaseUrl: who.url,
    slackMainUser: who.userId,
    slackMainUserName: who.userName,
    BotScope: who.botScope,
    Scope: who.userScope,
    OauthV1: false,
    installationRevoked: false,
  });
  // A configured widget re-added to its own team keeps its channel; anything else picks one now.
  if (!(sameTeam && ce.Step === 3)) ce.set({ Step: 2, RoomId: '', RoomName: '', topic: '' });
}

/** Add to Slack from setup step 1: the widget moves to Step 2 in that team. */
export async function completeInstall(ce: ChatEndpointDocument, who: SlackAuthorizer): Promise<ChatEndpointDocument> {
  linkToTeam(ce, who);
  return ce.save();
}

/** A new main user for the team: every widget of the account in that team now uses them. */
export async function completeSwapUser(models: Models, accountId: Types.ObjectId, who: SlackAuthorizer): Promise<void> {
  await models.ChatEndpoint.updateMany(
    { accountId, slackTeamId: who.teamId },
    {
      $set: {
        slackMainUser: who.userId,
        slackMainUserName: who.userName,
        Scope: who.userScope,
        BotScope: who.botScope,
        slackBaseUrl: who.url,
        slackTeamName: who.teamName,
      },
    },
  );
}

/** More scopes granted: the account's widgets in that team record them, and legacy ones are migrated. */
export async function completeUpgrade(models: Models, accountId: Types.ObjectId, who: SlackAuthorizer): Promise<void> {
  await models.ChatEndpoint.updateMany(
    { accountId, slackTeamId: who.teamId },
    { $set: { BotScope: who.botScope, Scope: who.userScope, OauthV1: false } },
  );
}

/**
 * Sign-up with Slack: the user with the Slack e-mail signs in, or a new account (30-day trial), its
 * admin user (no password until they set one through a reset) and a first widget at Step 2 in the team are made.
 */
export async function signUpWithSlack(
  models: Models,
  input: { email: string; source: string; who: SlackAuthorizer },
): Promise<{ user: UserDocument; created: boolean; ce: ChatEndpointDocument | null }> {
  const now = new Date();
  const existing = await models.User.findOne({ email: input.email });
  if (existing) {
    existing.lastSignedInAt = now;
    await existing.save();
    return { user: existing, created: false, ce: null };
  }
  const account = await models.Account.create({
    planStripeId: TRIAL_PLAN_STRIPE_ID,
    paymentType: 'none',
    trialEndAt: new Date(now.getTime() + TRIAL_DAYS * DAY_MS),
    email: input.email,
    orgName: input.who.teamName,
  });
  let user: UserDocument;
  try {
    user = await models.User.create({
      email: input.email,
      passwordHash: null,
      admin: true,
      accountId: account._id,
      lastSignedInAt: now,
      tklID: input.source,
    });
  } catch (error) {
    await models.Account.deleteOne({ _id: account._id });
    throw error;
  }
  const ce = await createWidget(models, { accountId: account._id, userId: user._id });
  linkToTeam(ce, input.who);
  await ce.save();
  return { user, created: true, ce };
}
