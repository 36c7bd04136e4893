/**
 * Without STRIPE_SECRET_KEY Parley runs the Stripe sandbox in-process: its API on a port of its own (the stripe
 * client always calls /v1/… at the root of a host), its hosted pages and operator page at /sandbox/stripe on
 * Parley. It is seeded with the plan catalog, accepts the development secret key, and signs webhooks to
 * Parley's endpoint with STRIPE_WEBHOOK_SECRET (generated in development when not given).
 */
import path from 'node:path';
import type { Config } from '../config';
import { createStripeSandbox, type StripeSandbox, type StripeSeed } from '../sandbox/stripe';
import { type CatalogPlan, PLAN_CATALOG } from '../shared/plans';

export const STRIPE_SANDBOX_PATH = '/sandbox/stripe';
export const STRIPE_WEBHOOK_PATH = '/v1/billing/stripe-webhook';

/** Products (one per tier) and their monthly and yearly prices; a price's id and lookup key are the plan's stripeId. */
export function stripeSeed(plans: readonly CatalogPlan[]): StripeSeed {
  const products = new Map<string, StripeSeed['products'][number]>();
  for (const plan of plans) {
    if (plan.price === null) continue;
    const id = `prod_parley_${plan.tier}`;
    const product = products.get(id) ?? { id, name: `Parley ${plan.label}`, prices: [] };
    products.set(id, product);
    product.prices.push({
      id: plan.stripeId,
      lookup_key: plan.stripeId,
      unit_amount: plan.price,
      currency: 'usd',
      interval: plan.duration === 'yearly' ? 'year' : 'month',
    });
  }
  return { products: [...products.values()] };
}

export type StripeSandboxTuning = {
  /** Gaps before webhook retries; tests shorten Stripe's hours to milliseconds. */
  retryDelaysMs?: number[];
};

/** `config` must carry the effective public URL. Returns the config pointing the stripe client at the sandbox. */
export async function startStripeSandbox(
  config: Config,
  tuning: StripeSandboxTuning = {},
): Promise<{ sandbox: StripeSandbox; config: Config }> {
  const sandbox = createStripeSandbox({
    baseUrl: `${config.publicUrl}${STRIPE_SANDBOX_PATH}`,
    secretKey: config.stripe.secretKey,
    webhook: { url: `${config.publicUrl}${STRIPE_WEBHOOK_PATH}`, secret: config.stripe.webhookSecret, retryDelaysMs: tuning.retryDelaysMs },
    seed: stripeSeed(PLAN_CATALOG),
    dataFile: path.join(config.dataDir, 'stripe-sandbox.json'),
  });
  try {
    const apiUrl = await sandbox.listen(0, '127.0.0.1');
    return { sandbox, config: { ...config, stripe: { ...config.stripe, apiUrl } } };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}
