/**
 * Billing on Stripe: customers and the trial subscription (customers.ts), Checkout (checkout.ts) and the payment
 * portal (portal.ts), plan changes with proration (plans.ts), invoices and account info (account.ts), keeping each
 * account in step with Stripe (sync.ts), webhooks (webhooks.ts) and the billing mails (mails.ts); createBilling
 * wires them. `server/billing` is the only place that talks to Stripe. Whatever Stripe says about an account is
 * re-read from Stripe (`syncCustomer`), never taken from an event's payload, so webhooks may arrive late, twice or
 * out of order.
 */
import { createAccountBilling } from './account';
import { createCheckout } from './checkout';
import { createCustomers } from './customers';
import { createBillingMails } from './mails';
import { createPlans } from './plans';
import { createPortal } from './portal';
import { type BillingContext, type BillingDeps, stripeCall } from './stripeCall';
import { createSync } from './sync';
import { createWebhooks } from './webhooks';

export { CHECKOUT_RETURN_PATH } from './checkout';
export { ADD_PAYMENT_METHOD_FIRST } from './plans';
export { PORTAL_RETURN_PATH } from './portal';
export { conversationsThisMonth, refreshQuota } from './quota';
export { STRIPE_WEBHOOK_PATH as WEBHOOK_PATH } from './sandbox';
export { acceptsConversations, accountState } from './state';
export type { BillingDeps } from './stripeCall';
export { createStripeClient } from './stripeClient';

export type Billing = ReturnType<typeof createBilling>;

export function createBilling(deps: BillingDeps) {
  const context: BillingContext = {
    ...deps,
    call: stripeCall(deps.logger),
    consoleUrl: (hashPath) => `${deps.config.publicUrl}/app/#${hashPath}`,
  };
  const sync = createSync(context);
  const customers = createCustomers(context, sync);
  const plans = createPlans(context, sync);
  const checkout = createCheckout(context, { ...customers, ...plans, ...sync });
  const portal = createPortal(context, { ...customers, ...sync });
  const account = createAccountBilling(context, customers);
  const webhooks = createWebhooks({ ...checkout, ...sync, ...createBillingMails(context) });

  return {
    webhookSecret: deps.config.stripe.webhookSecret,
    stripe: deps.stripe,
    ensureCustomer: customers.ensureCustomer,
    startTrial: customers.startTrial,
    startTrialSoon: customers.startTrialSoon,
    idle: customers.idle,
    syncCustomer: sync.syncCustomer,
    checkoutUrl: checkout.checkoutUrl,
    portalUrl: portal.portalUrl,
    changePlan: plans.changePlan,
    listInvoices: account.listInvoices,
    nextInvoice: account.nextInvoice,
    updateInfo: account.updateInfo,
    handleEvent: webhooks.handleEvent,
    checkoutReturn: checkout.checkoutReturn,
    portalReturn: portal.portalReturn,
  };
}
