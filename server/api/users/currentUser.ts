import type { Types } from 'mongoose';
import { effectivePlanId } from '../../billing/state';
import { maskedKeys } from '../../commands/apiKeys';
import { AuthorizationError } from '../../errors';
import type { Models } from '../../models';
import type { Plan } from '../../models/Plan';
import type { UserDocument } from '../../models/User';
import type { CurrentUser } from '../../shared/types';
import { presentAccount } from '../presenters/account';
import { presentChatEndpoint } from '../presenters/chatEndpoint';
import { presentCurrentUser } from '../presenters/user';

/** What the console's widget answers need of presence: `Presence.recheck`, which decides a widget's state and stores it. */
export type PresenceCheck = { recheck(ceId: string): Promise<boolean> };

/**
 * Brings the stored presence (`status`, which the widget answers' `online` and `status` show) of the account's
 * configured widgets up to date: the dashboard's dot says what a visitor gets now (the one presence function
 * that also answers the widget's config and its socket), not what it was at the last change.
 */
export async function refreshPresence(models: Models, presence: PresenceCheck, accountId: Types.ObjectId): Promise<void> {
  const ces = await models.ChatEndpoint.find({ accountId, Step: 3 }, { _id: 1 }).lean();
  await Promise.all(ces.map((ce) => presence.recheck(String(ce._id)).catch(() => false)));
}

/** The catalog in display order: monthly tiles then yearly ones, cheapest first. */
export async function availablePlans(models: Models): Promise<Plan[]> {
  const plans = await models.Plan.find().lean<Plan[]>();
  return plans.sort((a, b) => a.duration.localeCompare(b.duration) || a.rank - b.rank);
}

/**
 * Everything GET /users/current answers: the user, their account with its plan, and the account's widgets.
 * `freshKey` is a key just generated, shown in full this once.
 */
export async function loadCurrentUser(
  models: Models,
  user: UserDocument,
  freshKey?: { field: 'apiKey' | 'zapierApiKey'; key: string },
): Promise<CurrentUser> {
  const account = await models.Account.findById(user.accountId);
  // A user without an account cannot use anything; treat it like a dead session.
  if (!account) throw new AuthorizationError();
  const plans = await availablePlans(models);
  const plan = plans.find((p) => p.stripeId === account.planStripeId);
  const effective = plans.find((p) => p.stripeId === effectivePlanId(account));
  if (!plan || !effective) throw new Error(`Account ${account.id} is on plan ${account.planStripeId}, which is not in the catalog`);
  const ces = await models.ChatEndpoint.find({ accountId: account._id }).sort({ _id: 1 });
  const keys = await maskedKeys(models, account._id);
  if (freshKey) keys[freshKey.field] = freshKey.key;
  return presentCurrentUser(user, presentAccount(account, plan, effective, plans, user.admin, keys), ces.map(presentChatEndpoint));
}
