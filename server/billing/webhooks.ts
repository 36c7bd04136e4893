/**
 * Stripe's verified webhook events: the account an event is about is brought up to date from Stripe, then the
 * billing mail it calls for is sent.
 */
import { ValidationError } from '../errors';
import type { Checkout } from './checkout';
import type { BillingMails } from './mails';
import { idOf } from './stripeCall';
import type { Stripe } from './stripeClient';
import type { Sync } from './sync';

export function createWebhooks({
  completeCheckout,
  syncCustomer,
  billingMail,
}: Pick<Checkout, 'completeCheckout'> & Pick<Sync, 'syncCustomer'> & BillingMails) {
  /**
   * A verified webhook event: brings the account it is about up to date, then sends the billing mail it calls for.
   * A Checkout session Stripe does not have is bad input (400, nothing changed).
   */
  async function handleEvent(event: Stripe.Event): Promise<void> {
    const object = event.data.object as { object?: string; id?: string; customer?: string | { id: string } | null };
    if (event.type === 'checkout.session.completed' && object.id && (await completeCheckout(object.id)) === 'unknown') {
      throw new ValidationError('No such Checkout session', 'bad_session');
    }
    const customerId = object.object === 'customer' ? (object.id ?? '') : idOf(object.customer ?? null);
    const account = customerId ? await syncCustomer(customerId) : null;
    if (account && object.id) await billingMail(event.type, object.id, event.created, account);
  }

  return { handleEvent };
}
