import type { AccountDocument } from '../../models/Account';
import type { Plan } from '../../models/Plan';
import type { AccountView } from '../../shared/types';
import { presentPlan } from './plan';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** API keys are shown to admins only. */
export function presentAccount(account: AccountDocument, plan: Plan, availablePlans: Plan[], viewerIsAdmin: boolean): AccountView {
  return {
    Id: account._id.toHexString(),
    plan: presentPlan(plan),
    availablePlans: availablePlans.map(presentPlan),
    paymentType: account.paymentType,
    trialEndAt: iso(account.trialEndAt),
    cancelAt: iso(account.cancelAt),
    canceledAt: iso(account.canceledAt),
    created_at: account.createdAt.toISOString(),
    nextInvoiceAt: iso(account.nextInvoiceAt),
    delinquent: account.delinquent,
    quota: { isOverquota: account.quota.isOverquota, reason: account.quota.reason },
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
    GDPRExportSignedURL: account.GDPRExportSignedURL,
    apiKey: viewerIsAdmin ? account.apiKey : '',
    zapierApiKey: viewerIsAdmin ? account.zapierApiKey : '',
  };
}
