import { isStorageUnavailable, WidgetRefusal } from '../errors';
import type { WidgetErrorCode } from '../shared/widget-protocol';

/**
 * What a widget's `error` frame says for a failed frame: a refusal as it is (its code picks the widget's message),
 * anything else logged and answered with a generic retry that leaks nothing.
 */
export function widgetErrorOf(error: unknown, logger: Pick<Console, 'error'>): { code: WidgetErrorCode; message: string } {
  if (error instanceof WidgetRefusal) return { code: error.code, message: error.message };
  if (isStorageUnavailable(error)) {
    logger.error('relay: frame not stored, the database takes no writes; the widget sends it again', error);
    return { code: 'try_again', message: 'Your message could not be saved just now; it will be sent again in a moment.' };
  }
  logger.error('relay: frame failed', error);
  return { code: 'bad_frame', message: 'Something went wrong; please try again.' };
}
