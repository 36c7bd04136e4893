/**
 * Parley's logger: pino, one JSON line per event (level, time, message, and the ids the caller knows: requestId,
 * accountId, widgetId, conversationId). main.ts builds it once from LOG_LEVEL and hands it to every part, like any
 * other dependency; nothing looks it up. `npm run dev` pipes the lines through pino-pretty; anything else gets JSON.
 *
 * Secrets never reach a line, by configuration in two layers: `redact` blanks the fields that hold them (request
 * headers, and keys such as `password` or `token` in whatever object is logged), and the `streamWrite` hook blanks
 * what looks like one wherever it ended up (a message, an error's text): Slack and Stripe tokens and keys, Parley's
 * API and Zapier keys, bearer credentials, session JWTs, card numbers, and the deployment's own configured secrets.
 */
import pino from 'pino';

export type Logger = pino.Logger;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const CENSORED = '[Redacted]';

/** Field names whose values are secrets wherever they appear (top level of a logged object, or one level down). */
const SECRET_FIELDS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'refreshToken',
  'botToken',
  'userToken',
  'visitorToken',
  'apiKey',
  'secret',
  'clientSecret',
  'signingSecret',
  'webhookSecret',
  'secretKey',
  'segmentWriteKey',
  'authorization',
  'cookie',
  'card',
  'cardNumber',
  'cvc',
];

/** The request and response headers that carry credentials (pino-http logs the others). */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'x-visitor-token',
  'x-slack-signature',
  'stripe-signature',
  'x-metrics-token',
];

export const REDACTED_PATHS: string[] = [
  ...SECRET_HEADERS.map((name) => `req.headers["${name}"]`),
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((name) => [name, `*.${name}`]),
];

/** Shapes of secrets, blanked wherever they appear in a line. */
const SECRET_PATTERNS: [RegExp, string][] = [
  // Slack tokens (bot, user, app, refresh, config).
  [/xox[abposre]-[A-Za-z0-9-]+/g, CENSORED],
  [/xapp-[A-Za-z0-9-]+/g, CENSORED],
  // Stripe secret, restricted and publishable keys, webhook signing secrets.
  [/\b(?:sk|rk|pk)_(?:test|live)_[A-Za-z0-9]+/g, CENSORED],
  [/whsec_[A-Za-z0-9+/=_-]+/g, CENSORED],
  // Parley's API and Zapier keys.
  [/\b[pz]k_[A-Za-z0-9_-]{30,}/g, CENSORED],
  // Session tokens (JWTs) and any bearer credential.
  [/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, CENSORED],
  [/(Bearer\s+)[^\s"\\]+/gi, `$1${CENSORED}`],
];

/** 14 to 19 digits, maybe grouped by spaces or dashes: a card number when the Luhn check holds. */
const CARD_CANDIDATE = /\b\d(?:[ -]?\d){13,18}\b/g;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Blanks secrets in a finished line. `known`: the deployment's own secrets (JWT secret, Slack and Stripe
 * credentials, METRICS_TOKEN), blanked wherever they appear however they look.
 */
export function scrubSecrets(line: string, known: readonly string[] = []): string {
  let out = line;
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(CENSORED);
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out.replace(CARD_CANDIDATE, (match) => (luhn(match.replace(/[ -]/g, '')) ? CENSORED : match));
}

export type LoggerOptions = {
  level: LogLevel;
  /** The deployment's own secrets, blanked in every line (those shorter than 8 characters are ignored). */
  secrets?: readonly string[];
  /** Where lines go; standard output by default. */
  destination?: pino.DestinationStream;
};

/** Builds Parley's logger (main.ts does, once; tests build their own to read what was logged). */
export function createLogger(options: LoggerOptions): Logger {
  const known = (options.secrets ?? []).filter((s) => s.length >= 8);
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: CENSORED },
      serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
      hooks: { streamWrite: (line) => scrubSecrets(line, known) },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
