// Stripe's error shape: `{ error: { type, code, decline_code, param, message, doc_url } }` with Stripe's HTTP statuses.

export type StripeErrorType = 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error' | 'authentication_error';

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: StripeErrorType,
    message: string,
    readonly extra: { code?: string; decline_code?: string; param?: string } = {},
  ) {
    super(message);
    this.name = 'StripeApiError';
  }

  body(): { error: Record<string, string> } {
    const error: Record<string, string> = { message: this.message, type: this.type };
    if (this.extra.code) {
      error.code = this.extra.code;
      error.doc_url = `https://docs.stripe.com/error-codes/${this.extra.code.replace(/_/g, '-')}`;
    }
    if (this.extra.decline_code) error.decline_code = this.extra.decline_code;
    if (this.extra.param !== undefined) error.param = this.extra.param;
    return { error };
  }
}

const OBJECT_NAMES: Record<string, string> = {
  cus: 'customer',
  sub: 'subscription',
  in: 'invoice',
  pm: 'PaymentMethod',
  cs: 'checkout.session',
  prod: 'product',
  price: 'price',
  evt: 'event',
  txi: 'tax_id',
  si: 'subscription item',
  seti: 'setupintent',
};

export const missing = (kind: keyof typeof OBJECT_NAMES, id: string, param = 'id') =>
  new StripeApiError(404, 'invalid_request_error', `No such ${OBJECT_NAMES[kind]}: '${id}'`, { code: 'resource_missing', param });

export const paramMissing = (param: string) =>
  new StripeApiError(400, 'invalid_request_error', `Missing required param: ${param}.`, { code: 'parameter_missing', param });

export const paramInvalid = (param: string, message: string) =>
  new StripeApiError(400, 'invalid_request_error', message, { code: 'parameter_invalid_string', param });

export const invalidRequest = (message: string, param?: string) =>
  new StripeApiError(400, 'invalid_request_error', message, param === undefined ? {} : { param });

/** What a card error says, as Stripe words it. */
export function cardError(
  kind: 'declined' | 'insufficient_funds' | 'incorrect_number' | 'invalid_expiry' | 'invalid_cvc' | 'live_card',
  param = '',
): StripeApiError {
  switch (kind) {
    case 'declined':
      return new StripeApiError(402, 'card_error', 'Your card was declined.', {
        code: 'card_declined',
        decline_code: 'generic_decline',
        param,
      });
    case 'insufficient_funds':
      return new StripeApiError(402, 'card_error', 'Your card has insufficient funds.', {
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        param,
      });
    case 'incorrect_number':
      return new StripeApiError(402, 'card_error', 'Your card number is incorrect.', { code: 'incorrect_number', param: 'number' });
    case 'invalid_expiry':
      return new StripeApiError(402, 'card_error', "Your card's expiration date is invalid.", {
        code: 'invalid_expiry_year',
        param: 'exp_year',
      });
    case 'invalid_cvc':
      return new StripeApiError(402, 'card_error', "Your card's security code is invalid.", { code: 'invalid_cvc', param: 'cvc' });
    case 'live_card':
      return new StripeApiError(
        402,
        'card_error',
        'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
        {
          code: 'card_declined',
          decline_code: 'test_mode_live_card',
          param,
        },
      );
  }
}
