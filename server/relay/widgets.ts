/**
 * Widget settings read on every message (limits, avatars, notifications) are kept for a second instead of being
 * read from the database each time; a settings change through the API drops the entry at once.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';

const TTL_MS = 1000;

export class WidgetCache {
  private readonly entries = new Map<string, { value: Promise<ChatEndpointDocument | null>; until: number }>();

  constructor(private readonly models: Models) {}

  get(id: Types.ObjectId | string): Promise<ChatEndpointDocument | null> {
    const key = String(id);
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    const value = this.models.ChatEndpoint.findById(key).exec();
    this.entries.set(key, { value, until: now + TTL_MS });
    if (this.entries.size > 10_000) {
      for (const [k, e] of this.entries) if (e.until <= now) this.entries.delete(k);
    }
    return value;
  }

  invalidate(id: Types.ObjectId | string): void {
    this.entries.delete(String(id));
  }
}
