// The objects the Stripe sandbox keeps, stored in Stripe's own shapes (API version of the installed
// `stripe` package: periods on subscription items, the invoice's subscription under `parent`) so that
// presenting them is a copy plus `expand[]`.

export type Metadata = Record<string, string>;

export interface Address {
  city: string | null;
  country: string | null;
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  state: string | null;
}

export interface Product {
  id: string;
  object: 'product';
  active: boolean;
  created: number;
  default_price: string | null;
  description: string | null;
  livemode: false;
  metadata: Metadata;
  name: string;
  updated: number;
}

export type Interval = 'day' | 'week' | 'month' | 'year';

export interface Price {
  id: string;
  object: 'price';
  active: boolean;
  billing_scheme: 'per_unit';
  created: number;
  currency: string;
  livemode: false;
  lookup_key: string | null;
  metadata: Metadata;
  nickname: string | null;
  product: string;
  recurring: { interval: Interval; interval_count: number; usage_type: 'licensed'; trial_period_days: null } | null;
  tax_behavior: 'unspecified';
  type: 'recurring' | 'one_time';
  unit_amount: number;
  unit_amount_decimal: string;
}

export interface TaxId {
  id: string;
  object: 'tax_id';
  country: string | null;
  created: number;
  customer: string;
  livemode: false;
  type: string;
  value: string;
  verification: { status: 'unverified'; verified_address: null; verified_name: null };
}

export interface Customer {
  id: string;
  object: 'customer';
  address: Address | null;
  balance: number;
  created: number;
  currency: string | null;
  delinquent: boolean;
  description: string | null;
  email: string | null;
  invoice_prefix: string;
  invoice_settings: { custom_fields: null; default_payment_method: string | null; footer: string | null; rendering_options: null };
  livemode: false;
  metadata: Metadata;
  name: string | null;
  next_invoice_sequence: number;
  phone: string | null;
  preferred_locales: string[];
  shipping: null;
  tax_exempt: 'none' | 'exempt' | 'reverse';
  test_clock: null;
  /** Kept for `expand[]=tax_ids`; Stripe lists them only when expanded. */
  tax_ids?: { object: 'list'; data: TaxId[]; has_more: false; url: string };
}

/** How a test card behaves, as Stripe documents its test numbers. */
export type CardBehavior = 'succeeds' | 'declined' | 'insufficient_funds' | 'charge_fails';

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  billing_details: { address: Address; email: string | null; name: string | null; phone: string | null };
  card: {
    brand: string;
    checks: { address_line1_check: null; address_postal_code_check: null; cvc_check: 'pass' };
    country: string;
    display_brand: string;
    exp_month: number;
    exp_year: number;
    fingerprint: string;
    funding: 'credit';
    last4: string;
  };
  created: number;
  customer: string | null;
  livemode: false;
  metadata: Metadata;
  type: 'card';
  /** Sandbox-only, never presented: what charges to this card do. */
  behavior?: CardBehavior;
}

export interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  created: number;
  current_period_end: number;
  current_period_start: number;
  metadata: Metadata;
  price: Price;
  quantity: number;
  subscription: string;
}

export type SubscriptionStatus =
  | 'incomplete'
  | 'incomplete_expired'
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'canceled'
  | 'unpaid'
  | 'paused';

export interface Subscription {
  id: string;
  object: 'subscription';
  billing_cycle_anchor: number;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  cancellation_details: { comment: string | null; feedback: string | null; reason: string | null };
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  customer: string;
  default_payment_method: string | null;
  description: string | null;
  ended_at: number | null;
  items: { object: 'list'; data: SubscriptionItem[]; has_more: false; total_count: number; url: string };
  latest_invoice: string | null;
  livemode: false;
  metadata: Metadata;
  pending_update: null;
  start_date: number;
  status: SubscriptionStatus;
  test_clock: null;
  trial_end: number | null;
  trial_settings: { end_behavior: { missing_payment_method: 'cancel' | 'create_invoice' | 'pause' } };
  trial_start: number | null;
  /** Sandbox-only, never presented: when customer.subscription.trial_will_end went out for the current trial end. */
  sandbox?: { trialWillEndFor?: number };
}

export interface InvoiceLine {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string | null;
  discount_amounts: [];
  discountable: boolean;
  discounts: [];
  invoice: string | null;
  livemode: false;
  metadata: Metadata;
  parent: {
    type: 'subscription_item_details';
    invoice_item_details: null;
    subscription_item_details: {
      invoice_item: null;
      proration: boolean;
      proration_details: { credited_items: null };
      subscription: string;
      subscription_item: string;
    };
  };
  period: { end: number; start: number };
  pretax_credit_amounts: [];
  pricing: { price_details: { price: string; product: string }; type: 'price_details'; unit_amount_decimal: string };
  quantity: number;
  quantity_decimal: string;
  subscription: string;
  subtotal: number;
  taxes: [];
}

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';

export interface Invoice {
  id: string;
  object: 'invoice';
  account_country: string;
  account_name: string;
  amount_due: number;
  amount_overpaid: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  auto_advance: boolean;
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'manual' | 'upcoming';
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  customer: string;
  customer_address: Address | null;
  customer_email: string | null;
  customer_name: string | null;
  default_payment_method: string | null;
  description: string | null;
  ending_balance: number | null;
  hosted_invoice_url: string | null;
  invoice_pdf: string | null;
  last_finalization_error: null;
  lines: { object: 'list'; data: InvoiceLine[]; has_more: false; total_count: number; url: string };
  livemode: false;
  metadata: Metadata;
  next_payment_attempt: number | null;
  number: string | null;
  parent: { type: 'subscription_details'; quote_details: null; subscription_details: { metadata: Metadata; subscription: string } } | null;
  period_end: number;
  period_start: number;
  starting_balance: number;
  status: InvoiceStatus | null;
  status_transitions: {
    finalized_at: number | null;
    marked_uncollectible_at: number | null;
    paid_at: number | null;
    voided_at: number | null;
  };
  subtotal: number;
  subtotal_excluding_tax: number;
  test_clock: null;
  total: number;
  total_excluding_tax: number;
  webhooks_delivered_at: number | null;
  /** Sandbox-only, never presented: the card error of the last failed attempt. */
  last_error?: string;
}

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: string | null;
  customer_details: {
    address: Address | null;
    email: string | null;
    name: string | null;
    phone: null;
    tax_exempt: 'none';
    tax_ids: [];
  } | null;
  customer_email: string | null;
  expires_at: number;
  invoice: string | null;
  livemode: false;
  metadata: Metadata;
  /** `subscription`: pay for a plan; `setup`: save a card for later charges (a SetupIntent, nothing charged). */
  mode: 'subscription' | 'setup';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  subscription: string | null;
  /** Setup mode: the SetupIntent that saved the card, once the session is complete. */
  setup_intent: string | null;
  success_url: string | null;
  url: string | null;
  /** null in setup mode. */
  amount_subtotal: number | null;
  amount_total: number | null;
  custom_text: {
    after_submit: { message: string } | null;
    shipping_address: { message: string } | null;
    submit: { message: string } | null;
    terms_of_service_acceptance: { message: string } | null;
  };
  /** Sandbox-only, never presented: what to subscribe to (subscription mode), the SetupIntent's metadata (setup mode). */
  sandbox: {
    items: { price: string; quantity: number }[];
    trialEnd: number | null;
    trialPeriodDays: number | null;
    subscriptionMetadata: Metadata;
    setupIntentMetadata?: Metadata;
  };
}

/** A card saved for later off-session charges (Checkout in setup mode creates one). */
export interface SetupIntent {
  id: string;
  object: 'setup_intent';
  application: null;
  automatic_payment_methods: null;
  cancellation_reason: null;
  client_secret: string;
  created: number;
  customer: string | null;
  description: string | null;
  flow_directions: null;
  last_setup_error: null;
  latest_attempt: null;
  livemode: false;
  mandate: null;
  metadata: Metadata;
  next_action: null;
  on_behalf_of: null;
  payment_method: string | null;
  payment_method_options: { card: { mandate_options: null; network: null; request_three_d_secure: 'automatic' } };
  payment_method_types: string[];
  single_use_mandate: null;
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  usage: 'off_session' | 'on_session';
}

export interface PortalSession {
  id: string;
  object: 'billing_portal.session';
  configuration: string;
  created: number;
  customer: string;
  flow: {
    type: 'subscription_cancel' | 'payment_method_update' | 'subscription_update';
    after_completion: {
      type: 'redirect' | 'portal_homepage' | 'hosted_confirmation';
      redirect: { return_url: string } | null;
      hosted_confirmation: null;
    };
    subscription_cancel: { retention: null; subscription: string } | null;
    subscription_update: null;
    subscription_update_confirm: null;
  } | null;
  livemode: false;
  locale: null;
  on_behalf_of: null;
  return_url: string | null;
  url: string;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface DeliveryAttempt {
  at: number;
  status?: number;
  error?: string;
}

export interface Delivery {
  id: string;
  eventId: string;
  type: string;
  status: 'pending' | 'succeeded' | 'failed' | 'dropped';
  attempts: DeliveryAttempt[];
  /** Why it was sent: the event happening, or a test asking for a duplicate or a reordering. */
  reason: 'event' | 'duplicate' | 'reordered';
}

export interface IdempotentAnswer {
  fingerprint: string;
  status: number;
  body: string;
  at: number;
}

export interface StripeData {
  /** Milliseconds the sandbox clock is ahead of the wall clock (Stripe's test clocks, globally). */
  clockOffsetMs: number;
  products: Product[];
  prices: Price[];
  customers: Customer[];
  paymentMethods: PaymentMethod[];
  subscriptions: Subscription[];
  invoices: Invoice[];
  checkoutSessions: CheckoutSession[];
  setupIntents: SetupIntent[];
  portalSessions: PortalSession[];
  events: StripeEvent[];
  deliveries: Delivery[];
  idempotency: Record<string, IdempotentAnswer>;
  /** Proration lines waiting for the subscription's next invoice (create_prorations). */
  pendingLines: InvoiceLine[];
}

/** Products and prices the sandbox starts with: Parley passes its plan catalog. */
export interface StripeSeed {
  products: {
    id: string;
    name: string;
    description?: string;
    metadata?: Metadata;
    prices: {
      id: string;
      lookup_key?: string;
      unit_amount: number;
      currency: string;
      interval: Interval;
      nickname?: string;
      metadata?: Metadata;
    }[];
  }[];
}
