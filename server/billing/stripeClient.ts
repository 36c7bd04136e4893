/** The official Stripe client, pointed at Stripe or, through STRIPE_API_URL, at the sandbox. */
import Stripe from 'stripe';
import type { Config } from '../config';

export type { Stripe };

export function createStripeClient(settings: Config['stripe']): Stripe {
  const url = settings.apiUrl ? new URL(settings.apiUrl) : null;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'https:' ? 443 : 80),
          protocol: url.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}
