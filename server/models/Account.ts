import { type Connection, type HydratedDocument, type Model, Schema } from 'mongoose';
import type { AccountRecord } from '../shared/types';
import { dropOnEveryWrite, shortReads } from '../shortReads';

/** The stored account: the fields its view shows (AccountRecord, in shared/) and the billing bookkeeping. */
export interface Account extends AccountRecord<Date> {
  /** stripeId of the plan in the catalog. */
  planStripeId: string;
  stripeCustomerId: string;
  stripeSubscriptionId: string;
  /** Stripe's status of that subscription ('trialing', 'active', 'past_due', 'canceled' ...); '' before there is one. */
  subscriptionStatus: string;
  /** True once the account paid for a plan: a later end of the subscription is a cancellation, not an expired trial. */
  hadPaidPlan: boolean;
  createdAt: Date;
  updatedAt: Date;
}
export type AccountDocument = HydratedDocument<Account>;

/** Every stored field has a path here: a field added to Account or AccountRecord fails to compile until it does. */
const fields = {
  planStripeId: { type: String, required: true },
  paymentType: { type: String, default: 'none' },
  trialEndAt: { type: Date, default: null },
  cancelAt: { type: Date, default: null },
  canceledAt: { type: Date, default: null },
  nextInvoiceAt: { type: Date, default: null },
  delinquent: { type: Boolean, default: false },
  quota: {
    isOverquota: { type: Boolean, default: false },
    reason: { type: String, default: '' },
  },
  orgName: { type: String, default: '' },
  email: { type: String, default: '' },
  billingAddressLine1: { type: String, default: '' },
  billingCity: { type: String, default: '' },
  billingState: { type: String, default: '' },
  billingPostalCode: { type: String, default: '' },
  billingCountry: { type: String, default: '' },
  taxID: { type: String, default: '' },
  last4: { type: String, default: '' },
  brand: { type: String, default: '' },
  expMonth: { type: Number, default: null },
  expYear: { type: Number, default: null },
  GDPRExportSignedURL: { type: String, default: '' },
  retentionDays: { type: Number, default: null },
  stripeCustomerId: { type: String, default: '' },
  stripeSubscriptionId: { type: String, default: '' },
  subscriptionStatus: { type: String, default: '' },
  hadPaidPlan: { type: Boolean, default: false },
} satisfies Record<Exclude<keyof Account, 'createdAt' | 'updatedAt'>, unknown>;

export const AccountSchema = new Schema<Account>(fields, { timestamps: true });

AccountSchema.index({ stripeCustomerId: 1 });

export type AccountModel = Model<Account>;
export function accountModel(connection: Connection): AccountModel {
  return (connection.models.Account as AccountModel | undefined) ?? connection.model<Account>('Account', AccountSchema);
}

/**
 * What decides whether an account takes new conversations (billing/state.ts `acceptsConversations`) and which plan's
 * limits apply (billing/state.ts `effectivePlanId`: operator seats ask it for every operator reply).
 */
export type AccountBillingState = Pick<Account, 'planStripeId' | 'paymentType' | 'trialEndAt' | 'subscriptionStatus' | 'hadPaidPlan'>;
const BILLING_STATE_FIELDS = { planStripeId: 1, paymentType: 1, trialEndAt: 1, subscriptionStatus: 1, hadPaidPlan: 1 } as const;
const BILLING_STATE_TTL_MS = 1000;

/**
 * Accounts' billing states as presence asks them for every new conversation and operator seats for every reply, kept
 * for a second per database (the model), so neither costs a read for them. Every write of an account through mongoose,
 * in this process, drops the database's entries once it is done (the hooks below); another process's write is seen
 * within BILLING_STATE_TTL_MS. A trial's end needs no write: it is compared with the time when asked.
 */
const billingStates = shortReads<AccountModel, AccountBillingState | null>(BILLING_STATE_TTL_MS);

export function accountBillingState(Account: AccountModel, accountId: unknown): Promise<AccountBillingState | null> {
  return billingStates.get(Account, String(accountId), () =>
    Account.findById(accountId, BILLING_STATE_FIELDS).lean<AccountBillingState>().exec(),
  );
}

dropOnEveryWrite(AccountSchema, billingStates);
