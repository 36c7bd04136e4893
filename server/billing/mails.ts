/**
 * The billing mails: three days before a trial ends, when it has ended, and a receipt for each paid invoice, decided
 * on what Stripe says now and sent once each.
 */
import type { Mailer } from '../mail';
import { receiptMail, trialEndedMail, trialEndingMail } from '../mail/templates';
import type { AccountDocument } from '../models/Account';
import { catalogPlan } from '../shared/plans';
import { type BillingContext, claimOnce, idOf, releaseOnce } from './stripeCall';
import { formatCents, formatDay } from './texts';

export type BillingMails = ReturnType<typeof createBillingMails>;

export function createBillingMails({ models, stripe, mailer, call, consoleUrl }: BillingContext) {
  /** A week after a trial's end its "trial ended" mail is no longer news (a later update of the same subscription). */
  const TRIAL_ENDED_NEWS = 7 * 24 * 60 * 60;

  /**
   * The mails around the trial's end and each payment, decided on what Stripe says now (the event only names the
   * object) and sent once each: three days before the trial ends (trial_will_end), when it has ended, and a
   * receipt for each paid invoice with its hosted page. A failed send gives its claim back and fails the event,
   * so Stripe's retry sends it.
   */
  async function billingMail(type: string, objectId: string, at: number, account: AccountDocument): Promise<void> {
    const to = account.email || (await models.User.findOne({ accountId: account._id, admin: true }).sort({ _id: 1 }))?.email || '';
    if (!to) return;
    const accountUrl = consoleUrl('/account');
    const planName = (price: string) => {
      const plan = catalogPlan(price);
      return plan ? `${plan.label} (${plan.duration})` : 'Parley';
    };
    let key = '';
    let mail: Parameters<Mailer['send']>[0] | null = null;
    if (type === 'customer.subscription.trial_will_end') {
      const subscription = await call(() => stripe.subscriptions.retrieve(objectId));
      const price = subscription.items.data[0]?.price;
      // Sent even when it arrives after the trial's end (a clock moved past both), but not for a trial ended at once
      // (trial_end=now: Stripe sends the event as the trial ends) or cut short by a cancellation.
      const cutShort = subscription.status === 'canceled' && (subscription.ended_at ?? 0) < (subscription.trial_end ?? 0);
      if (!subscription.trial_end || at >= subscription.trial_end || !price || cutShort) return;
      const card = account.paymentType !== 'none' && account.last4 ? `${account.brand || 'card'} card ending in ${account.last4}` : '';
      key = `mail:trial-will-end:${subscription.id}:${subscription.trial_end}`;
      mail = await trialEndingMail(to, {
        endsOn: formatDay(new Date(subscription.trial_end * 1000)),
        accountUrl,
        charge: card ? { card, amount: formatCents(price.unit_amount ?? 0), plan: planName(price.id) } : null,
      });
    } else if (type === 'customer.subscription.updated' || type === 'customer.subscription.deleted') {
      const subscription = await call(() => stripe.subscriptions.retrieve(objectId));
      const trialEnd = subscription.trial_end;
      if (!trialEnd || subscription.status === 'trialing' || at < trialEnd || at - trialEnd > TRIAL_ENDED_NEWS) return;
      // Ended by the trial, not cancelled before it (a trial replaced by a paid subscription).
      if (subscription.status === 'canceled' && (subscription.ended_at ?? 0) < trialEnd) return;
      const outcome = subscription.status === 'active' ? 'started' : subscription.status === 'canceled' ? 'no_card' : 'payment_failed';
      key = `mail:trial-ended:${subscription.id}`;
      mail = await trialEndedMail(to, {
        endedOn: formatDay(new Date(trialEnd * 1000)),
        accountUrl,
        outcome,
        plan: planName(subscription.items.data[0]?.price.id ?? ''),
      });
    } else if (type === 'invoice.paid') {
      const invoice = await call(() => stripe.invoices.retrieve(objectId));
      if (invoice.amount_paid <= 0) return;
      const line = [...invoice.lines.data].reverse().find((l) => l.amount > 0) ?? invoice.lines.data[0];
      const price = idOf(line?.pricing?.price_details?.price ?? null);
      key = `mail:receipt:${invoice.id}`;
      mail = await receiptMail(to, {
        amount: formatCents(invoice.amount_paid),
        paidOn: formatDay(new Date((invoice.status_transitions?.paid_at ?? invoice.created) * 1000)),
        description: catalogPlan(price) ? `${planName(price)} plan` : 'Parley',
        number: invoice.number ?? '',
        invoiceUrl: invoice.hosted_invoice_url ?? '',
      });
    }
    if (!mail || !(await claimOnce(models, key, 'parley.mail'))) return;
    try {
      await mailer.send(mail);
    } catch (error) {
      await releaseOnce(models, key);
      throw error;
    }
  }

  return { billingMail };
}
