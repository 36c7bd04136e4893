/**
 * Whether a widget has chosen bots or people to invite into its new conversations, kept for a second (as the widget's
 * settings are, relay/widgets.ts) so that a new conversation's header costs no read for it: an addition or removal
 * through this process (botUsers.ts) drops the widget's entry at once; another process's is seen within a second
 * (server/shortReads.ts).
 * Held per database (the models), so tests' servers in one process never share entries.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import { shortReads } from '../shortReads';

const caches = shortReads<Pick<Models, 'BotUser'>, boolean>(1000);

export function hasBotUsers(models: Pick<Models, 'BotUser'>, ceId: Types.ObjectId | string): Promise<boolean> {
  return caches.get(models, String(ceId), () =>
    models.BotUser.exists({ ceId })
      .exec()
      .then((found) => found !== null),
  );
}

/** The widget's bots changed here: read again at its next new conversation. */
export function botUsersChanged(models: Pick<Models, 'BotUser'>, ceId: Types.ObjectId | string): void {
  caches.drop(models, String(ceId));
}
