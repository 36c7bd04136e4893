/**
 * Suggested replies from past conversations: when a new question is close to the first visitor lines of earlier
 * conversations of the same widget, the operators' first answers to those are suggested in the Slack thread (an
 * operator still has to press Send). Each widget's index is built in memory from its last answered conversations,
 * kept in a bounded LRU and rebuilt lazily once stale (the stale one answers meanwhile).
 *
 * What is never suggested: another widget's answers (one index per widget); a conversation erased for GDPR
 * (erasedAt set, its messages deleted) or deleted by retention; an internal note (never stored as a message); an
 * automatic message (a saved reply sent by its trigger, a question group's or the help center's automatic answers
 * carry no operator's Slack user). Since an index may be minutes old, every candidate is read again before it is
 * suggested: an answer whose conversation was erased or deleted since is left out.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import { Types } from 'mongoose';
import type { Models } from '../models';
import { CloseTexts } from './wordMatch';

/** How many of a widget's most recent answered conversations its index holds. */
export const PAST_CONVERSATIONS = 500;
/** An index older than this is rebuilt on its next use (the stale one answers while it is). */
const REFRESH_MS = 2 * 60_000;
/** Past answers kept in memory over all widgets, each index counted by its entries. */
const ENTRIES_KEPT = 100_000;
/** The visitor lines before the first answer that make a past question, and how far into a conversation to look. */
const QUESTION_LINES = 3;
const QUESTION_CHARS = 500;
const FIRST_SEQS = 40;
/**
 * How long a suggestion waits for a widget's first index (later ones are rebuilt while the stale one answers): the
 * Suggested post holds its conversation's outbox key, so a slow build goes on without it and serves the next one.
 */
const BUILD_WAIT_MS = 2000;
/** Past questions sharing at least this share of the new one's meaningful words (and the other way round). */
const CLOSE_SHARE = 0.6;

/** A past answer as the index holds it. */
type Entry = { conversationId: string; messageId: string; question: string };

/** A suggested past answer: the operator's first answer to a conversation whose opening was close to the new one. */
export type PastAnswer = {
  /** The stored operator message (sending it reads it again). */
  messageId: string;
  conversationId: string;
  /** Its conversation's number in the widget (shown as "from #12"). */
  number: number;
  /** The past visitor's opening lines, and the answer as the widget showed it. */
  question: string;
  text: string;
};

type WidgetIndex = { texts: CloseTexts<Entry>; entries: number };

export type PastAnswersDeps = { models: Pick<Models, 'Conversation' | 'Message'> };

export class PastAnswers {
  private readonly indexes: LRUCache<string, WidgetIndex>;
  /** Index builds and suggestions, for the bench and the metrics of a process. */
  readonly stats = { builds: 0, buildMs: 0, suggestions: 0, suggestMs: 0 };

  constructor(private readonly deps: PastAnswersDeps) {
    this.indexes = new LRUCache<string, WidgetIndex>({
      maxSize: ENTRIES_KEPT,
      sizeCalculation: (index) => index.entries + 1,
      ttl: REFRESH_MS,
      allowStale: true,
      fetchMethod: (ceId) => this.build(ceId),
    });
  }

  /**
   * Up to `limit` past answers of the widget `ceId` close to `question`, best first, each read again (its conversation
   * still there and not erased, the answer not deleted). `exclude`: the conversation asking.
   */
  async suggest(
    ceId: Types.ObjectId | string,
    question: string,
    options: { limit?: number; exclude?: string } = {},
  ): Promise<PastAnswer[]> {
    const started = performance.now();
    try {
      const index = await Promise.race([this.indexes.fetch(String(ceId)), sleep(BUILD_WAIT_MS, undefined, { ref: false })]);
      if (!index) return [];
      const close = index.texts
        .close(question, { share: CLOSE_SHARE, symmetric: true, limit: 20 })
        .filter(({ item }) => item.conversationId !== options.exclude);
      if (close.length === 0) return [];
      return await this.current(
        close.map(({ item }) => item),
        options.limit ?? 3,
      );
    } finally {
      this.stats.suggestions += 1;
      this.stats.suggestMs += performance.now() - started;
    }
  }

  /** The candidates as they are now, in their order: gone, erased and deleted ones left out; one per answer text. */
  private async current(candidates: Entry[], limit: number): Promise<PastAnswer[]> {
    const { Conversation, Message } = this.deps.models;
    const [conversations, messages] = await Promise.all([
      Conversation.find({ _id: { $in: candidates.map((c) => new Types.ObjectId(c.conversationId)) }, erasedAt: null }, { number: 1 }).lean<
        { _id: Types.ObjectId; number: number }[]
      >(),
      Message.find(
        { _id: { $in: candidates.map((c) => new Types.ObjectId(c.messageId)) }, deleted: false },
        { text: 1, conversationId: 1 },
      ).lean<{ _id: Types.ObjectId; text: string; conversationId: Types.ObjectId }[]>(),
    ]);
    const numbers = new Map(conversations.map((c) => [String(c._id), c.number]));
    const texts = new Map(messages.map((m) => [String(m._id), m]));
    const out: PastAnswer[] = [];
    const seen = new Set<string>();
    for (const candidate of candidates) {
      const number = numbers.get(candidate.conversationId);
      const message = texts.get(candidate.messageId);
      if (number === undefined || !message?.text.trim() || String(message.conversationId) !== candidate.conversationId) continue;
      // Several conversations answered with the same words are one suggestion.
      const key = message.text.trim().replace(/\s+/g, ' ').toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...candidate, number, text: message.text });
      if (out.length >= limit) break;
    }
    return out;
  }

  /** The index of a widget: its last answered conversations' openings, each with the operator's first answer. */
  private async build(ceId: string): Promise<WidgetIndex> {
    const started = performance.now();
    const { Conversation, Message } = this.deps.models;
    const conversations = await Conversation.find(
      { ceId: new Types.ObjectId(ceId), firstResponseAt: { $ne: null }, erasedAt: null, discarded: { $ne: true } },
      { _id: 1 },
    )
      .sort({ startedAt: -1 })
      .limit(PAST_CONVERSATIONS)
      .lean<{ _id: Types.ObjectId }[]>();
    const texts = new CloseTexts<Entry>({ question: 1 });
    if (conversations.length > 0) {
      const lines = await Message.find(
        { conversationId: { $in: conversations.map((c) => c._id) }, kind: 'msg', seq: { $lte: FIRST_SEQS } },
        { conversationId: 1, seq: 1, from: 1, text: 1, slackUserId: 1, deleted: 1 },
      ).lean<
        {
          _id: Types.ObjectId;
          conversationId: Types.ObjectId;
          seq: number;
          from: string;
          text: string;
          slackUserId: string;
          deleted: boolean;
        }[]
      >();
      const byConversation = new Map<string, typeof lines>();
      for (const line of lines) {
        const key = String(line.conversationId);
        const list = byConversation.get(key) ?? [];
        list.push(line);
        byConversation.set(key, list);
      }
      for (const [conversationId, list] of byConversation) {
        list.sort((a, b) => a.seq - b.seq);
        const asked: string[] = [];
        for (const line of list) {
          if (line.deleted || !line.text.trim()) continue;
          if (line.from === 'visitor') {
            if (asked.length < QUESTION_LINES) asked.push(line.text.trim());
            continue;
          }
          // A person's answer from Slack carries their Slack user; automatic messages carry none.
          if (line.from !== 'operator' || !line.slackUserId) continue;
          const question = asked.join('\n').slice(0, QUESTION_CHARS);
          if (question) texts.add({ conversationId, messageId: String(line._id), question }, { question });
          break;
        }
      }
    }
    this.stats.builds += 1;
    this.stats.buildMs += performance.now() - started;
    return { texts, entries: texts.size };
  }
}
