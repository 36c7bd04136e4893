/**
 * Stripe's calls into Parley, outside the JSON API: the signed webhook (raw body, so mounted before any body
 * parser) and Checkout's return, which brings the account up to date before the console opens.
 */
import express, { Router } from 'express';
import type { Counter } from 'prom-client';
import { z } from 'zod';
import type { Billing } from '../../billing';
import { CHECKOUT_RETURN_PATH, PORTAL_RETURN_PATH, WEBHOOK_PATH } from '../../billing';
import { ValidationError } from '../../errors';
import type { Models } from '../../models';
import { parse } from '../../validation';

/** Stripe's default: a signature more than 5 minutes old is refused (replays). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const DUPLICATE_KEY = 11000;

/** What Parley reads of a signed event: anything signed but shaped otherwise is bad input (400, nothing kept). */
const StripeEventSchema = z.looseObject({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.looseObject({
    object: z.looseObject({
      id: z.string().max(255).optional(),
      object: z.string().max(255).optional(),
      customer: z.union([z.string().max(255), z.looseObject({ id: z.string().max(255) }), z.null()]).optional(),
    }),
  }),
});

/** `webhooks`: counts each delivery by event type and outcome (parley_stripe_webhooks_total). */
export function billingRouter({
  billing,
  models,
  webhooks,
}: {
  billing: Billing;
  models: Models;
  webhooks: Pick<Counter<'type' | 'outcome'>, 'inc'>;
}): Router {
  const router = Router();

  router.post(WEBHOOK_PATH, express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const payload = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let event: ReturnType<Billing['stripe']['webhooks']['constructEvent']>;
    try {
      event = billing.stripe.webhooks.constructEvent(
        payload,
        req.get('stripe-signature') ?? '',
        billing.webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
      );
    } catch {
      webhooks.inc({ type: 'unknown', outcome: 'invalid_signature' });
      throw new ValidationError('The Stripe signature is missing, wrong or too old.', 'bad_signature');
    }
    parse(StripeEventSchema, event);
    // The event id is claimed first: a second delivery (retry, duplicate) finds it and does nothing.
    try {
      await models.StripeEvent.create({ eventId: event.id, type: event.type });
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) {
        webhooks.inc({ type: event.type, outcome: 'duplicate' });
        res.json({ received: true, duplicate: true });
        return;
      }
      throw error;
    }
    try {
      await billing.handleEvent(event);
    } catch (error) {
      // Not taken: Stripe delivers it again later.
      await models.StripeEvent.deleteOne({ eventId: event.id });
      webhooks.inc({ type: event.type, outcome: 'failed' });
      throw error;
    }
    webhooks.inc({ type: event.type, outcome: 'processed' });
    res.json({ received: true });
  });

  router.get(CHECKOUT_RETURN_PATH, async (req, res) => {
    const sessionId = typeof req.query.session_id === 'string' ? req.query.session_id : '';
    if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) throw new ValidationError('Unknown Checkout session', 'bad_session');
    res.redirect(303, await billing.checkoutReturn(sessionId));
  });

  router.get(PORTAL_RETURN_PATH, async (req, res) => {
    const accountId = typeof req.query.account === 'string' ? req.query.account : '';
    const signature = typeof req.query.sig === 'string' ? req.query.sig : '';
    if (!/^[0-9a-f]{24}$/.test(accountId)) throw new ValidationError('Unknown account', 'bad_account');
    res.redirect(303, await billing.portalReturn(accountId, signature));
  });

  return router;
}
