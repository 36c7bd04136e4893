/**
 * What the console's account screen reads from Stripe and saves to it: the invoices, the next one, and the
 * Account Info form (saved to the Stripe customer first).
 */
import type { AccountDocument } from '../models/Account';
import type { AccountInfoPayload, InvoiceView, NextInvoiceView } from '../shared/types';
import type { Customers } from './customers';
import { type BillingContext, idOf, LIVE, toSeconds } from './stripeCall';

export function createAccountBilling({ stripe, call }: BillingContext, { ensureCustomer }: Pick<Customers, 'ensureCustomer'>) {
  async function listInvoices(account: AccountDocument): Promise<InvoiceView[]> {
    if (!account.stripeCustomerId) return [];
    const invoices = await call(() => stripe.invoices.list({ customer: account.stripeCustomerId, limit: 24 }));
    return invoices.data
      .filter((invoice) => invoice.status === 'paid' || invoice.status === 'open' || invoice.status === 'uncollectible')
      .map((invoice) => {
        // A proration invoice credits the old plan first: the plan billed is on the last line charged.
        const line = [...invoice.lines.data].reverse().find((l) => l.amount > 0) ?? invoice.lines.data[0];
        const subscription = invoice.parent?.subscription_details?.subscription;
        return {
          id: invoice.id ?? '',
          stripePlanId: subscription ? idOf(line?.pricing?.price_details?.price ?? null) : '',
          dateTs: invoice.status_transitions?.paid_at ?? invoice.created,
          amount: invoice.total,
          stripeInvoiceUrl: invoice.hosted_invoice_url ?? '',
        };
      });
  }

  async function nextInvoice(account: AccountDocument): Promise<NextInvoiceView> {
    if (account.paymentType === 'none' || !account.stripeSubscriptionId || !LIVE.has(account.subscriptionStatus) || account.cancelAt)
      return null;
    const preview = await call(() =>
      stripe.invoices
        .createPreview({ customer: account.stripeCustomerId, subscription: account.stripeSubscriptionId })
        .catch((error: unknown) => {
          // Stripe has no next invoice: the subscription was set to cancel (or ended) and its webhook has not reached
          // Parley yet. There is nothing to charge, which is not Stripe being unreachable.
          if ((error as { code?: string }).code === 'invoice_upcoming_none') return null;
          throw error;
        }),
    );
    if (!preview) return null;
    const dateTs = account.nextInvoiceAt ? toSeconds(account.nextInvoiceAt) : preview.period_end;
    // What will be charged: the total less the customer's credit (a downgrade's proration), as Stripe applies it.
    return { amount: preview.amount_due, dateTs };
  }

  /** Saves the Account Info form to the Stripe customer first, then to Parley: a Stripe failure changes nothing. */
  async function updateInfo(account: AccountDocument, email: string, info: AccountInfoPayload): Promise<AccountDocument> {
    const customer = await ensureCustomer(account, email);
    await call(() =>
      stripe.customers.update(customer, {
        name: info.orgName,
        email: info.email || email,
        address: {
          line1: info.billingAddressLine1,
          city: info.billingCity,
          state: info.billingState,
          postal_code: info.billingPostalCode,
          country: info.billingCountry,
        },
        metadata: { taxID: info.taxID },
        invoice_settings: { custom_fields: info.taxID ? [{ name: 'Tax ID', value: info.taxID }] : '' },
      }),
    );
    account.set(info);
    return account.save();
  }

  return { listInvoices, nextInvoice, updateInfo };
}
