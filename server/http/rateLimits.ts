import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { RateLimitError } from '../errors';

type Limit = { windowMs: number; limit: number; onlyFailures?: boolean };

const emailOf = (req: Request): string | undefined => {
  const email: unknown = (req.body as { email?: unknown } | undefined)?.email;
  // Cut to the longest valid address so junk bodies cannot make the in-memory store hold huge keys.
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : undefined;
};

function limiter(name: string, options: Limit, key: (req: Request) => string | undefined): RequestHandler {
  return rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipFailedRequests: false,
    skipSuccessfulRequests: options.onlyFailures ?? false,
    // A request without the key (no e-mail given) is left to validation, which answers 400.
    skip: (req) => key(req) === undefined,
    keyGenerator: (req) => `${name}:${key(req) ?? ''}`,
    handler: (_req, _res, next) => next(new RateLimitError()),
  });
}

/** Two limits on one public call: per client address and per e-mail address in the body. */
export function perIpAndEmail(name: string, windowMs: number, perIp: number, perEmail: number, onlyFailures = false): RequestHandler[] {
  return [
    limiter(`${name}-ip`, { windowMs, limit: perIp, onlyFailures }, (req) => ipKeyGenerator(req.ip ?? 'unknown')),
    limiter(`${name}-email`, { windowMs, limit: perEmail, onlyFailures }, emailOf),
  ];
}

/** After requireApiKey: at most `perMinute` requests a minute for each key (429 beyond). */
export function perApiKey(perMinute: number, keyOf: (res: Response) => string): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (_req, res) => `api-key:${keyOf(res)}`,
    handler: (_req, _res, next) =>
      next(new RateLimitError('Too many requests for this API key, slow down and retry after the Retry-After header')),
  });
}
