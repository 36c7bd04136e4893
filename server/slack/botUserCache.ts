/**
 * Whether a widget has chosen bots or people to invite into its new conversations, kept for a second (as the widget's
 * settings are, relay/widgets.ts) so that a new conversation's header costs no read for it: an addition or removal
 * through this process (botUsers.ts) drops the widget's entry at once; another process's is seen within TTL_MS.
 * Held per database (the models), so tests' servers in one process never share entries.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';

const TTL_MS = 1000;
type Entry = { until: number; has: Promise<boolean> };
const caches = new WeakMap<Pick<Models, 'BotUser'>, Map<string, Entry>>();

export function hasBotUsers(models: Pick<Models, 'BotUser'>, ceId: Types.ObjectId | string): Promise<boolean> {
  let cache = caches.get(models);
  if (!cache) {
    cache = new Map();
    caches.set(models, cache);
  }
  const key = String(ceId);
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.until > now) return hit.has;
  const has = models.BotUser.exists({ ceId })
    .exec()
    .then((found) => found !== null);
  // A failed read is not kept.
  has.catch(() => cache.delete(key));
  cache.set(key, { until: now + TTL_MS, has });
  if (cache.size > 10_000) for (const [k, e] of cache) if (e.until <= now) cache.delete(k);
  return has;
}

/** The widget's bots changed here: read again at its next new conversation. */
export function botUsersChanged(models: Pick<Models, 'BotUser'>, ceId: Types.ObjectId | string): void {
  caches.get(models)?.delete(String(ceId));
}
