import type { Logger } from '@slack/bolt';
import { AppError } from '../../errors';
import { isSlackCallError, slackErrorCode } from '../slackErrors';

/** What to tell the operator when an action fails: refusals as they are, everything else without internals. */
export function failureText(error: unknown, logger: Logger, what: string): string {
  if (error instanceof AppError && !error.isReportable) return error.message;
  if (isSlackCallError(error)) {
    logger.warn(`${what}: Slack call failed`, slackErrorCode(error) ?? error);
    return `Slack did not answer Parley (${slackErrorCode(error) ?? 'unreachable'}). Try again in a moment.`;
  }
  logger.error(`${what} failed`, error);
  return 'Parley could not finish this because of an unexpected error. Try again in a moment.';
}
