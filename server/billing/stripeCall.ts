/**
 * What every part of billing shares: its collaborators, Stripe calls whose failures become Parley's errors, the
 * subscription statuses that still bill, Stripe's times and ids, and once-only steps claimed in the table of
 * taken webhook events.
 */
import type { Config } from '../config';
import { AppError, external, PaymentRequiredError } from '../errors';
import type { Logger } from '../logger';
import type { Mailer } from '../mail';
import type { Models } from '../models';
import type { Stripe } from './stripeClient';

export type BillingDeps = { config: Config; models: Models; stripe: Stripe; logger: Logger; mailer: Mailer };

/** Subscription statuses Stripe still bills or may still bill. */
export const LIVE = new Set(['trialing', 'active', 'past_due', 'unpaid', 'incomplete', 'paused']);

export const toDate = (seconds: number | null | undefined): Date | null => (seconds ? new Date(seconds * 1000) : null);
export const toSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
export const idOf = (value: string | { id: string } | null | undefined): string => (typeof value === 'string' ? value : (value?.id ?? ''));

/** Stripe's errors as Parley's: a card problem is the user's to fix (402), anything else is Stripe being unreachable. */
export function billingError(error: unknown, logger: Logger): AppError {
  if (error instanceof AppError) return error;
  const stripeError = error as { type?: string; message?: string; code?: string };
  if (stripeError.type === 'StripeCardError') {
    return new PaymentRequiredError(stripeError.message || 'Your card was declined.', external(stripeError.code || 'card_declined'));
  }
  // Stripe's messages and request ids only: never the request (it may carry the key) or card data.
  logger.error(
    { stripeErrorType: stripeError.type ?? 'unknown', detail: stripeError.message ?? String(error) },
    'billing: Stripe call failed',
  );
  return new AppError('Billing is not reachable right now. Please try again in a minute.', {
    status: 503,
    code: 'billing_unavailable',
    isReportable: true,
  });
}

/** Runs a Stripe call; its failure is thrown as Parley's error (billingError). */
export type StripeCall = <T>(work: () => Promise<T>) => Promise<T>;

export function stripeCall(logger: Logger): StripeCall {
  return async (work) => {
    try {
      return await work();
    } catch (error) {
      throw billingError(error, logger);
    }
  };
}

/**
 * Claims a once-only step (a checkout's plan, a billing mail) under `key` in the table of taken webhook events:
 * true for the first caller only. `releaseOnce` gives the claim back when the step failed.
 */
export async function claimOnce(models: Models, key: string, type: string): Promise<boolean> {
  try {
    await models.StripeEvent.create({ eventId: key, type });
    return true;
  } catch (error) {
    if ((error as { code?: number }).code === 11000) return false;
    throw error;
  }
}

export const releaseOnce = (models: Models, key: string) => models.StripeEvent.deleteOne({ eventId: key });

/** What each part of billing is built with: the collaborators, Stripe calls, and the console's links. */
export type BillingContext = BillingDeps & {
  call: StripeCall;
  /** The console's address of a screen (its hash path). */
  consoleUrl(hashPath: string): string;
};
