/**
 * Widget settings read on every message (limits, avatars, notifications) are kept for a second instead of being
 * read from the database each time (server/shortReads.ts); a settings change through the API drops the entry at once.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import { shortReads } from '../shortReads';

const TTL_MS = 1000;

/** Held per cache (each relay its own), so two Parley servers in one process never share entries. */
const caches = shortReads<WidgetCache, ChatEndpointDocument | null>(TTL_MS);

export class WidgetCache {
  constructor(private readonly models: Models) {}

  get(id: Types.ObjectId | string): Promise<ChatEndpointDocument | null> {
    const key = String(id);
    return caches.get(this, key, () => this.models.ChatEndpoint.findById(key).exec());
  }

  invalidate(id: Types.ObjectId | string): void {
    caches.drop(this, String(id));
  }
}
