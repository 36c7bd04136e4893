/**
 * Bolt's and @slack/web-api's logger interface (@slack/logger) on Parley's logger, so what they log is a JSON line
 * like any other: strings make the message, an error goes under `err`, anything else under `detail`.
 */
import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from '../logger';

const RANK: Record<LogLevel, number> = { [LogLevel.DEBUG]: 0, [LogLevel.INFO]: 1, [LogLevel.WARN]: 2, [LogLevel.ERROR]: 3 };

export function slackLogger(parent: Logger, name: string, level: LogLevel = LogLevel.WARN): SlackLogger {
  let logger = parent.child({ module: name });
  let current = level;
  // Bolt logs console-style argument lists.
  const write =
    (method: LogLevel) =>
    (...args: unknown[]) => {
      if (RANK[method] < RANK[current]) return;
      const err = args.find((a): a is Error => a instanceof Error);
      const text = args.filter((a) => typeof a === 'string' || typeof a === 'number').join(' ');
      const detail = args.filter((a) => a !== err && typeof a === 'object' && a !== null);
      logger[method]({ ...(err ? { err } : {}), ...(detail.length > 0 ? { detail } : {}) }, text || (err?.message ?? name));
    };
  return {
    debug: write(LogLevel.DEBUG),
    info: write(LogLevel.INFO),
    warn: write(LogLevel.WARN),
    error: write(LogLevel.ERROR),
    setLevel: (next) => {
      current = next;
    },
    getLevel: () => current,
    setName: (next) => {
      logger = parent.child({ module: next });
    },
  };
}
