import { isStorageUnavailable, WidgetRefusal } from '../errors';
import type { Logger } from '../logger';
import type { WidgetErrorCode } from '../shared/widget-protocol';

/**
 * What a widget's `error` frame says for a failed frame: a refusal as it is (its code picks the widget's message),
 * anything else logged and answered with a generic retry that leaks nothing.
 */
export function widgetErrorOf(error: unknown, logger: Pick<Logger, 'error'>): { code: WidgetErrorCode; message: string } {
  if (error instanceof WidgetRefusal) return { code: error.code, message: error.message };
  if (isStorageUnavailable(error)) {
    logger.error({ err: error }, 'relay: frame not stored, the database takes no writes; the widget sends it again');
    return { code: 'try_again', message: 'Your message could not be saved just now; it will be sent again in a moment.' };
  }
  logger.error({ err: error }, 'relay: frame failed');
  return { code: 'bad_frame', message: 'Something went wrong; please try again.' };
}
