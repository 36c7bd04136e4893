/**
 * Conversations as this process just stored them, each with its visitor as read to open it, for the thread's header
 * job that runs right after them here (stored claimed by this process, with the first line): taken once, and only
 * within JUST_STARTED_MS, so a new conversation's header reads neither again. Whatever changes a conversation or its
 * visitor once it is stored queues a header update behind the header (conversations/record.ts `headerUpdate`), which
 * reads both: the thread's header ends as the store has it.
 */

import { LRUCache } from 'lru-cache';
import type { Types } from 'mongoose';
import type { Conversation } from '../models/Conversation';
import type { Visitor } from '../models/Visitor';

/** Longer than a header waits behind its first line's store and the channel's pace; a later header reads. */
const JUST_STARTED_MS = 2000;

export type StartedConversation = { conversation: Conversation & { _id: Types.ObjectId }; visitor: Visitor };

export class JustStarted {
  private readonly kept = new LRUCache<string, StartedConversation>({ max: 1000, ttl: JUST_STARTED_MS });

  put(started: StartedConversation): void {
    this.kept.set(String(started.conversation._id), started);
  }

  /** The conversation `id` and its visitor as just stored here, once; undefined when not (or no longer) kept. */
  take(id: string): StartedConversation | undefined {
    const started = this.kept.get(id);
    this.kept.delete(id);
    return started;
  }
}
