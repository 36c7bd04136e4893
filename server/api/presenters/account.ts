import { accountState, lostSinceTrial } from '../../billing/state';
import type { AccountDocument } from '../../models/Account';
import type { Plan } from '../../models/Plan';
import type { PlanLoss } from '../../shared/plans';
import type { AccountView } from '../../shared/types';
import { presentPlan } from './plan';

/** What the trial's end took away, as the view says it. */
const afterTrial = ({ features, limits }: PlanLoss) => ({ switchedOff: features, lowerLimits: limits });

/** A signed export link carries its expiry (`expires`, seconds); an expired one is not shown. */
function liveLink(url: string): string {
  const expires = /[?&]expires=(\d+)/.exec(url)?.[1];
  return expires && Number(expires) * 1000 > Date.now() ? url : '';
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

type BillingDetails = Pick<
  AccountView,
  | 'orgName'
  | 'email'
  | 'billingAddressLine1'
  | 'billingCity'
  | 'billingState'
  | 'billingPostalCode'
  | 'billingCountry'
  | 'taxID'
  | 'last4'
  | 'brand'
  | 'expMonth'
  | 'expYear'
>;

const billingDetails = (account: AccountDocument): BillingDetails => ({
  orgName: account.orgName,
  email: account.email,
  billingAddressLine1: account.billingAddressLine1,
  billingCity: account.billingCity,
  billingState: account.billingState,
  billingPostalCode: account.billingPostalCode,
  billingCountry: account.billingCountry,
  taxID: account.taxID,
  last4: account.last4,
  brand: account.brand,
  expMonth: account.expMonth,
  expYear: account.expYear,
});

const NO_BILLING_DETAILS: BillingDetails = {
  orgName: '',
  email: '',
  billingAddressLine1: '',
  billingCity: '',
  billingState: '',
  billingPostalCode: '',
  billingCountry: '',
  taxID: '',
  last4: '',
  brand: '',
  expMonth: null,
  expYear: null,
};

/**
 * What only admins see (spec: Account is admin only): the card, the invoice address and the API keys, masked
 * unless just generated (`keys` says what to show). Others get the plan and the account's state, which their
 * dashboard's banners need, with these fields empty.
 */
export function presentAccount(
  account: AccountDocument,
  plan: Plan,
  effectivePlan: Plan,
  availablePlans: Plan[],
  viewerIsAdmin: boolean,
  keys: { apiKey: string; zapierApiKey: string },
): AccountView {
  return {
    Id: account._id.toHexString(),
    state: accountState(account),
    firstChargeAt: account.subscriptionStatus === 'trialing' && account.paymentType !== 'none' ? iso(account.nextInvoiceAt) : null,
    plan: presentPlan(plan),
    effectivePlan: presentPlan(effectivePlan),
    ...afterTrial(lostSinceTrial(account)),
    availablePlans: availablePlans.map(presentPlan),
    paymentType: account.paymentType,
    trialEndAt: iso(account.trialEndAt),
    cancelAt: iso(account.cancelAt),
    canceledAt: iso(account.canceledAt),
    created_at: account.createdAt.toISOString(),
    nextInvoiceAt: iso(account.nextInvoiceAt),
    delinquent: account.delinquent,
    quota: { isOverquota: account.quota.isOverquota, reason: account.quota.reason },
    ...(viewerIsAdmin ? billingDetails(account) : NO_BILLING_DETAILS),
    GDPRExportSignedURL: viewerIsAdmin ? liveLink(account.GDPRExportSignedURL) : '',
    retentionDays: account.retentionDays ?? null,
    apiKey: viewerIsAdmin ? keys.apiKey : '',
    zapierApiKey: viewerIsAdmin ? keys.zapierApiKey : '',
  };
}
