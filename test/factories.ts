/** Builders of test data. `build*` return plain values; `create*` store them through the API or the models. */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createWidget } from '../server/commands/createWidget';
import { hashPassword } from '../server/commands/passwords';
import { createSession } from '../server/commands/sessions';
import type { AccountDocument } from '../server/models/Account';
import type { ChatEndpoint, ChatEndpointDocument } from '../server/models/ChatEndpoint';
import type { User, UserDocument } from '../server/models/User';
import { TRIAL_DAYS } from '../server/shared/constants';
import { TRIAL_PLAN_STRIPE_ID } from '../server/shared/plans';
import type { TestServer } from './helpers/app';

export type SignUpInput = { email: string; password: string; tklID?: string };

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}

/** A valid sign-up payload with a fresh e-mail. */
export function buildUser(overrides: Partial<SignUpInput> = {}): SignUpInput {
  return { email: uniqueEmail(), password: 'correct horse battery', ...overrides };
}

/** Signs a new user up through the API, as the console does. */
export async function signUpUser(server: TestServer, overrides: Partial<SignUpInput> = {}): Promise<SignUpInput & { token: string }> {
  const input = buildUser(overrides);
  const res = await request(server.url).post('/v1/p/users').send(input).expect(200);
  return { ...input, token: res.body.token as string };
}

/**
 * Stores an account with one user (and a first widget) straight through the models, for states the
 * API cannot produce (old accounts, non-admins, invited users).
 */
export async function createUserInDb(
  server: Pick<TestServer, 'models' | 'config'>,
  overrides: Partial<Omit<User, 'passwordHash' | 'accountId'>> & { password?: string; account?: AccountDocument } = {},
): Promise<{ user: UserDocument; account: AccountDocument; password: string; token: string }> {
  const { models } = server;
  const { password = 'correct horse battery', account: givenAccount, createdAt, ...userFields } = overrides;
  const account =
    givenAccount ??
    (await models.Account.create({
      planStripeId: TRIAL_PLAN_STRIPE_ID,
      trialEndAt: new Date(Date.now() + TRIAL_DAYS * 24 * 60 * 60 * 1000),
    }));
  const user = await models.User.create({
    email: uniqueEmail(),
    admin: true,
    lastSignedInAt: new Date(),
    ...userFields,
    passwordHash: await hashPassword(password, server.config.passwordHashing),
    accountId: account._id,
  });
  if (createdAt) {
    // createdAt is immutable through mongoose; an old account is written underneath it.
    await models.User.collection.updateOne({ _id: user._id }, { $set: { createdAt } });
  }
  if (!givenAccount) await createWidget(models, { accountId: account._id, userId: user._id });
  const token = await createSession(models, server.config.jwtSecret, user._id);
  const stored = await models.User.findById(user._id);
  if (!stored) throw new Error('the user just created is gone');
  return { user: stored, account, password, token };
}

/** Fields of a widget that finished setup (Step 3, linked to a Slack channel). */
export function buildConfiguredWidget(overrides: Partial<ChatEndpoint> = {}): Partial<ChatEndpoint> {
  const suffix = randomBytes(3).toString('hex').toUpperCase();
  return {
    Step: 3,
    RoomId: `C${suffix}`,
    RoomName: `support-${suffix.toLowerCase()}`,
    slackTeamId: 'T0PARLEY',
    slackBaseUrl: 'https://parley-test.slack.com/',
    slackMainUser: 'U0PARLEY',
    ...overrides,
  };
}

/** Stores one more widget for the account of a user; Step 1 unless the overrides say otherwise. */
export async function createWidgetInDb(
  server: Pick<TestServer, 'models'>,
  owner: Pick<UserDocument, '_id' | 'accountId'>,
  overrides: Partial<ChatEndpoint> = {},
): Promise<ChatEndpointDocument> {
  return server.models.ChatEndpoint.create({ Step: 1, ...overrides, accountId: owner.accountId, userId: owner._id });
}

/**
 * Puts an account (given itself or by one of its widgets) on `plan`, a Stripe price id, paying: what the webhooks of a
 * paid subscription leave. Waits first for the Stripe sandbox's deliveries in flight: the trial subscription's own
 * webhooks, landing after, would make it 'trialing' again.
 */
export async function payingOn(server: TestServer, plan: string, of: { ceId: unknown } | { accountId: unknown }): Promise<void> {
  await server.stripe.settled();
  const accountId = 'accountId' in of ? of.accountId : (await server.models.ChatEndpoint.findById(of.ceId))?.accountId;
  if (!accountId) throw new Error('no such account');
  await server.models.Account.updateOne({ _id: accountId }, { $set: { subscriptionStatus: 'active', planStripeId: plan } });
}
