/**
 * Parley's real logger (server/logger.ts) writing into memory, for tests that read what was logged: every line as
 * written (after redaction) and parsed.
 */
import { Writable } from 'node:stream';
import { createLogger, type Logger, type LogLevel } from '../../server/logger';

export type CapturedLogs = {
  logger: Logger;
  /** Every line written so far, as text. */
  text(): string;
  /** Every line written so far, parsed. */
  lines(): Record<string, unknown>[];
};

export function captureLogs(options: { level?: LogLevel; secrets?: string[] } = {}): CapturedLogs {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level: options.level ?? 'trace', secrets: options.secrets, destination });
  const text = () => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** A logger that writes nothing (for parts whose logging a test is not about). */
export const quietLogger = (): Logger => createLogger({ level: 'silent' });
