/**
 * The saved replies each widget sends by itself (autoSend, with trigger phrases), kept in this process so that a
 * visitor message costs no database read for them. Invalidated explicitly: every write of a widget's saved replies
 * (savedReplies.ts, deleteWidget.ts) calls `changed`, which drops the widget's entry here at once and signals the
 * other processes (over Redis), which `forget` theirs. Bounded: the least recently used widgets go first when the
 * cache holds too many widgets or too much text. An entry also expires after a few minutes, so a signal lost while
 * Redis was away is not followed for ever.
 */
import { LRUCache } from 'lru-cache';
import type { Types } from 'mongoose';
import type { Models } from '../models';
import type { SavedReply } from '../models/SavedReply';
import { triggerMatcher } from '../shared/savedReplies';

/** An automatic saved reply with its trigger phrases compiled. */
export type AutoSendReply = Pick<SavedReply, 'label' | 'response' | 'triggerPhrases'> & {
  _id: Types.ObjectId;
  /** True when a visitor message contains one of its trigger phrases as whole words. */
  matches(message: string): boolean;
};

/** The signal that tells the other processes a widget's saved replies changed. */
export type SavedRepliesChanged = { kind: 'savedReplies'; ceId: string };

export type AutoSendReplyLimits = {
  /** Widgets kept at most. */
  widgets: number;
  /** Characters of replies kept at most (labels, responses, phrases), over all widgets. */
  chars: number;
  /** How long an entry is trusted without a signal. */
  ttlMs: number;
};

export const AUTO_SEND_REPLY_LIMITS: AutoSendReplyLimits = { widgets: 10_000, chars: 16_000_000, ttlMs: 5 * 60_000 };

type Row = Pick<SavedReply, 'label' | 'response' | 'triggerPhrases'> & { _id: Types.ObjectId };

/** What a write of saved replies needs: to say which widget's replies changed. */
export type SavedRepliesWritten = Pick<AutoSendReplies, 'changed'>;

export class AutoSendReplies {
  private readonly entries: LRUCache<string, readonly AutoSendReply[]>;
  /** Reads under way; one dropped by `forget` is not stored when it returns (it may predate the change). */
  private readonly reading = new Map<string, Promise<readonly AutoSendReply[]>>();

  constructor(
    private readonly deps: { models: Models; peers: { signal(signal: SavedRepliesChanged): void } },
    limits: AutoSendReplyLimits = AUTO_SEND_REPLY_LIMITS,
  ) {
    this.entries = new LRUCache({
      max: limits.widgets,
      maxSize: limits.chars,
      ttl: limits.ttlMs,
      sizeCalculation: (replies) => replies.reduce((n, r) => n + r.label.length + r.response.length + r.triggerPhrases.length, 1),
    });
  }

  /** The widget's automatic replies, oldest first: from this process's memory, or one read shared by concurrent callers. */
  of(ceId: Types.ObjectId | string): Promise<readonly AutoSendReply[]> {
    const key = String(ceId);
    const cached = this.entries.get(key);
    if (cached) return Promise.resolve(cached);
    const under = this.reading.get(key);
    if (under) return under;
    const read = this.read(key).then(
      (replies) => {
        if (this.reading.get(key) === read) {
          this.reading.delete(key);
          this.entries.set(key, replies);
        }
        return replies;
      },
      (error: unknown) => {
        if (this.reading.get(key) === read) this.reading.delete(key);
        throw error;
      },
    );
    this.reading.set(key, read);
    return read;
  }

  /** This process changed the widget's saved replies (or deleted the widget): forgotten here and in the other processes. */
  changed(ceId: Types.ObjectId | string): void {
    this.forget(ceId);
    this.deps.peers.signal({ kind: 'savedReplies', ceId: String(ceId) });
  }

  /** Another process changed them: forgotten here. */
  forget(ceId: Types.ObjectId | string): void {
    const key = String(ceId);
    this.entries.delete(key);
    this.reading.delete(key);
  }

  private async read(ceId: string): Promise<readonly AutoSendReply[]> {
    const rows = await this.deps.models.SavedReply.find(
      { ceId, autoSend: true, triggerPhrases: { $gt: '' } },
      { label: 1, response: 1, triggerPhrases: 1 },
    )
      .sort({ _id: 1 })
      .lean<Row[]>()
      .exec();
    return rows.map((row) => ({ ...row, matches: triggerMatcher(row.triggerPhrases) }));
  }
}
