/**
 * Stripe's customer portal: its session (a subscription's cancellation flow when asked for) and the return from it,
 * signed per account, which syncs the account before the console opens.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AccountDocument } from '../models/Account';
import type { PortalReason } from '../shared/types';
import type { Customers } from './customers';
import { type BillingContext, LIVE } from './stripeCall';
import type { Sync } from './sync';

/** Where the payment portal sends the browser back; signed per account, it syncs the account before the console opens. */
export const PORTAL_RETURN_PATH = '/v1/billing/portal-return';

export function createPortal(
  { config, models, stripe, call, consoleUrl }: BillingContext,
  { ensureCustomer, syncCustomer }: Pick<Customers, 'ensureCustomer'> & Pick<Sync, 'syncCustomer'>,
) {
  const portalSignature = (accountId: string) =>
    createHmac('sha256', config.jwtSecret).update(`portal-return:${accountId}`).digest('base64url');

  async function portalUrl(account: AccountDocument, email: string, reason: PortalReason): Promise<string> {
    const customer = await ensureCustomer(account, email);
    const returnUrl = `${config.publicUrl}${PORTAL_RETURN_PATH}?account=${account.id}&sig=${portalSignature(account.id)}`;
    const cancellable = reason === 'subscription_cancel' && account.stripeSubscriptionId !== '' && LIVE.has(account.subscriptionStatus);
    const session = await call(() =>
      stripe.billingPortal.sessions.create({
        customer,
        return_url: returnUrl,
        ...(cancellable
          ? {
              flow_data: {
                type: 'subscription_cancel' as const,
                subscription_cancel: { subscription: account.stripeSubscriptionId },
                after_completion: { type: 'redirect' as const, redirect: { return_url: returnUrl } },
              },
            }
          : {}),
      }),
    );
    return session.url;
  }

  /**
   * The portal's return: with a valid signature the account is re-read from Stripe (a cancellation or a new card
   * shows at once, before its webhook); the console's account screen opens either way.
   */
  async function portalReturn(accountId: string, signature: string): Promise<string> {
    const expected = Buffer.from(portalSignature(accountId));
    const given = Buffer.from(signature);
    if (expected.length === given.length && timingSafeEqual(expected, given)) {
      const account = await models.Account.findById(accountId, { stripeCustomerId: 1 });
      if (account?.stripeCustomerId) await syncCustomer(account.stripeCustomerId);
    }
    return consoleUrl('/account');
  }

  return { portalUrl, portalReturn };
}
