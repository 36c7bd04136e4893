/**
 * Per-client limits on public calls (express-rate-limit) and window counters for other transports (the relay's
 * new sockets per IP). With Redis (REDIS_URL) the counts are kept there (rate-limit-redis), so a limit holds
 * across every process behind the load balancer; without it, in the process. Redis away: each process counts
 * alone until it is back (a limit still holds per process, nobody is locked out or let through unlimited).
 */
import type { Request, RequestHandler, Response } from 'express';
import { type IncrementResponse, ipKeyGenerator, MemoryStore, type Options, rateLimit, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { RateLimitError } from './errors';
import type { Logger } from './logger';
import type { Redis } from './redis';

type Limit = { windowMs: number; limit: number; onlyFailures?: boolean };

export type RateLimiters = {
  /** Two limits on one public call: per client address and per e-mail address in the body. */
  perIpAndEmail(name: string, windowMs: number, perIp: number, perEmail: number, onlyFailures?: boolean): RequestHandler[];
  /** After requireApiKey: at most `perMinute` requests a minute for each key (429 beyond). */
  perApiKey(perMinute: number, keyOf: (res: Response) => string): RequestHandler;
  /** Hits per key over fixed windows of `windowMs`: `hit(key)` counts one and answers the window's count so far. */
  counter(name: string, windowMs: number): { hit(key: string): Promise<number> };
};

const emailOf = (req: Request): string | undefined => {
  const email: unknown = (req.body as { email?: unknown } | undefined)?.email;
  // Cut to the longest valid address so junk bodies cannot make the store hold huge keys.
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : undefined;
};

/** Limiters counting in Redis when the deployment has it, in this process otherwise. */
export function createRateLimiters(deps: { redis?: Redis; logger: Logger }): RateLimiters {
  const { redis, logger } = deps;
  const store = (name: string): Store => (redis ? new RedisOrLocalStore(redis, `parley:rl:${name}:`, logger) : new MemoryStore());

  const limiter = (name: string, options: Limit, key: (req: Request) => string | undefined): RequestHandler =>
    rateLimit({
      windowMs: options.windowMs,
      limit: options.limit,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      skipFailedRequests: false,
      skipSuccessfulRequests: options.onlyFailures ?? false,
      store: store(name),
      // A request without the key (no e-mail given) is left to validation, which answers 400.
      skip: (req) => key(req) === undefined,
      keyGenerator: (req) => `${name}:${key(req) ?? ''}`,
      handler: (_req, _res, next) => next(new RateLimitError()),
    });

  return {
    perIpAndEmail(name, windowMs, perIp, perEmail, onlyFailures = false) {
      return [
        limiter(`${name}-ip`, { windowMs, limit: perIp, onlyFailures }, (req) => ipKeyGenerator(req.ip ?? 'unknown')),
        limiter(`${name}-email`, { windowMs, limit: perEmail, onlyFailures }, emailOf),
      ];
    },
    perApiKey(perMinute, keyOf) {
      return rateLimit({
        windowMs: 60_000,
        limit: perMinute,
        standardHeaders: 'draft-8',
        legacyHeaders: false,
        store: store('api-key'),
        keyGenerator: (_req, res) => `api-key:${keyOf(res)}`,
        handler: (_req, _res, next) =>
          next(new RateLimitError('Too many requests for this API key, slow down and retry after the Retry-After header')),
      });
    },
    counter(name, windowMs) {
      const counts = store(name);
      // The stores read only windowMs from express-rate-limit's options.
      void counts.init?.({ windowMs } as Options);
      return { hit: async (key) => (await counts.increment(key)).totalHits };
    },
  };
}

/**
 * rate-limit-redis while Redis answers, a MemoryStore of this process while it does not. The Redis store is
 * built again after a failure, since its scripts may not have been loaded (Redis was away when it started).
 */
class RedisOrLocalStore implements Store {
  readonly localKeys = false;
  private readonly alone = new MemoryStore();
  private shared: { store: RedisStore; loaded: Promise<boolean> } | null = null;
  private options: Options | null = null;
  private failing = false;

  constructor(
    private readonly redis: Redis,
    readonly prefix: string,
    private readonly logger: Logger,
  ) {}

  init(options: Options): void {
    this.options = options;
    this.alone.init(options);
  }

  increment(key: string): Promise<IncrementResponse> {
    return this.either(
      (s) => s.increment(key),
      () => this.alone.increment(key),
    );
  }

  decrement(key: string): Promise<void> {
    return this.either(
      (s) => s.decrement(key),
      () => this.alone.decrement(key),
    );
  }

  resetKey(key: string): Promise<void> {
    return this.either(
      (s) => s.resetKey(key),
      () => this.alone.resetKey(key),
    );
  }

  private sharedStore(): { store: RedisStore; loaded: Promise<boolean> } | null {
    const options = this.options;
    if (!options || this.redis.status !== 'ready') return null;
    if (!this.shared) {
      const store = new RedisStore({
        prefix: this.prefix,
        // ioredis answers Redis's reply untyped; RedisStore checks the shapes it needs.
        sendCommand: (command: string, ...args: string[]) => this.redis.call(command, ...args) as Promise<number | string>,
      });
      const loaded = Promise.resolve(store.init(options)).then(
        () => true,
        () => false,
      );
      this.shared = { store, loaded };
    }
    return this.shared;
  }

  private async either<T>(shared: (store: RedisStore) => Promise<T>, alone: () => Promise<T>): Promise<T> {
    const current = this.sharedStore();
    if (current && (await current.loaded)) {
      try {
        const result = await shared(current.store);
        if (this.failing) this.logger.info({ limiter: this.prefix }, 'rate limits: counted in Redis again');
        this.failing = false;
        return result;
      } catch (error) {
        if (!this.failing) this.logger.warn({ limiter: this.prefix, err: error }, 'rate limits: Redis failed, counting in this process');
        this.failing = true;
      }
    }
    if (current && this.shared === current) this.shared = null;
    return alone();
  }
}
