/** Business constants shared by the server and the console (spec section 9). */

/** The terms version a user must have accepted (User.ActiveTOSPP); any other value sends the user to /legal. */
export const TERMS_VERSION = '11AUG2020';

/** The documents a user can accept through POST /v1/users/legal_confirmation/{document}/{version}. */
export const LEGAL_DOCUMENTS = ['terms', 'privacy-policy'] as const;
export type LegalDocument = (typeof LEGAL_DOCUMENTS)[number];

/** Name of the cookie the console keeps the session token in. */
export const AUTH_COOKIE = 'auth_token';
/** How long the auth cookie (and the token inside it) lives. */
export const AUTH_COOKIE_DAYS = 30;

/** Passwords must be longer than this many characters. */
export const PASSWORD_MIN_EXCLUSIVE = 6;
/** Upper bound so hashing cost stays bounded; far beyond any real password. */
export const PASSWORD_MAX_LENGTH = 256;
export const EMAIL_MAX_LENGTH = 254;

export const RESET_TOKEN_LENGTH = 64;
/** A password reset link works for this long. */
export const RESET_TOKEN_TTL_MINUTES = 60;

export const TRIAL_DAYS = 30;

/** Satisfaction rating: 0 to 10, or -1 to dismiss the prompt. */
export const RATING_MIN = 0;
export const RATING_MAX = 10;
export const RATING_DISMISS = -1;

/** lastSignedInAt of a user who was invited and never signed in (the spec's "starts with '0000'"). */
export const NEVER_SIGNED_IN = '0000-01-01T00:00:00Z';

/** `#/account?checkout=not_completed`: where Checkout's return sends a session Stripe does not have, or not paid. */
export const CHECKOUT_NOT_COMPLETED = 'not_completed';

/** Statistics window of the dashboard cards, in days. */
export const STATS_WINDOW_DAYS = 30;

export const PLAN_DURATIONS = ['monthly', 'yearly'] as const;
export type PlanDuration = (typeof PLAN_DURATIONS)[number];

export const PLAN_FEATURES = ['reports', 'triggers', 'savedReplies', 'bots', 'whiteLabel', 'phoneSupport', 'questionGroups'] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

/** Values of the Error field in `{ Message, Error }` bodies. */
export const ERROR_CODES = {
  badRequest: 'bad_request',
  userExists: 'user_exists',
  invalidCredentials: 'invalid_credentials',
  invalidToken: 'invalid_token',
  unauthenticated: 'unauthenticated',
  paymentRequired: 'payment_required',
  sessionInvalid: 'session_invalid',
  notFound: 'not_found',
  rateLimited: 'rate_limited',
  invalidEmail: 'invalid_email',
  adminRequired: 'admin_required',
  invalidApiKey: 'invalid_api_key',
  conflict: 'conflict',
  forbidden: 'forbidden',
  internal: 'internal_error',
  actionRefused: 'action_refused',
  adminOnly: 'admin_only',
  badUser: 'bad_user',
  badSignature: 'bad_signature',
  badSession: 'bad_session',
  badAccount: 'bad_account',
  badChannel: 'bad_channel',
  notInstalled: 'not_installed',
  notConnected: 'not_connected',
  billingUnavailable: 'billing_unavailable',
  unknownPlan: 'unknown_plan',
  customPlan: 'custom_plan',
  tooManyChannels: 'too_many_channels',
  planLimit: 'plan_limit',
  planFeature: 'plan_feature',
  missingScope: 'missing_scope',
  noScopes: 'no_scopes',
  slackError: 'slack_error',
  userNotFound: 'user_not_found',
  channelInUse: 'channel_in_use',
  channelNotFound: 'channel_not_found',
  isArchived: 'is_archived',
  privateChannel: 'private_channel',
  teamAvatarInUse: 'team_avatar_in_use',
  storageUnavailable: 'storage_unavailable',
  /** A mail's "Continue the chat" link: older than 7 days, not Parley's (or changed), or of a verified visitor. */
  resumeExpired: 'resume_expired',
  resumeInvalid: 'resume_invalid',
  resumeVerified: 'resume_verified',
  /** A visitor's mail to an address that names no conversation (SMTP 550, Mailgun's webhook 406). */
  unknownRecipient: 'unknown_recipient',
  /** A webhook address no retry can reach (not http(s), or a private or reserved address). */
  unusableTarget: 'unusable_target',
  /** An outbox job that retrying cannot fix. */
  jobFailed: 'job_failed',
} as const;
/** Parley's own error codes (the widget protocol's codes are listed in widget-constants.ts). */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
