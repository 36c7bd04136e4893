/**
 * Records, as they happen, the facts the reports need and the relay does not keep anyway: every online/offline
 * transition of a widget with its cause. (Conversation facts — start, trigger, first operator reply, rating,
 * feedback, message counts, end — are fields of the conversation written by the relay; offline messages are
 * their own documents.) Built once in main.ts and handed to the relay.
 */
import type { Types } from 'mongoose';
import type { Logger } from '../logger';
import type { Models } from '../models';
import type { PresenceCause } from '../shared/reports';

export type ReportRecorder = {
  /**
   * The widget's presence as just computed, with the rule that decided it. Stores a transition when it
   * differs from the last one recorded; otherwise costs nothing (the last state is kept in memory).
   */
  presence(ce: { _id: Types.ObjectId; accountId: Types.ObjectId }, online: boolean, cause: PresenceCause): Promise<void>;
};

/** Rules that hold a widget offline; when one lets go, that rule is what brought the widget back online. */
const LIFTED: Partial<Record<PresenceCause, PresenceCause>> = {
  'switched-off': 'switched-on',
  'operating-hours': 'operating-hours',
  billing: 'billing',
  setup: 'setup',
};

export function createReportRecorder(deps: { models: Models; logger: Logger; now?: () => Date }): ReportRecorder {
  const now = deps.now ?? (() => new Date());
  const last = new Map<string, { online: boolean; cause: PresenceCause; n: number } | null>();
  const chains = new Map<string, Promise<void>>();

  async function latest(ceId: Types.ObjectId): Promise<{ online: boolean; cause: PresenceCause; n: number } | null> {
    const found = await deps.models.PresenceChange.findOne({ ceId }).sort({ n: -1, at: -1 }).lean();
    return found ? { online: found.online, cause: found.cause, n: found.n ?? 0 } : null;
  }

  async function record(ce: { _id: Types.ObjectId; accountId: Types.ObjectId }, online: boolean, cause: PresenceCause): Promise<void> {
    const key = String(ce._id);
    if (!last.has(key)) last.set(key, await latest(ce._id));
    for (let attempt = 0; attempt < 3; attempt++) {
      const previous = last.get(key) ?? null;
      if (previous && previous.online === online) return;
      const why = online && previous && LIFTED[previous.cause] ? LIFTED[previous.cause]! : cause;
      const n = (previous?.n ?? 0) + 1;
      try {
        await deps.models.PresenceChange.create({ accountId: ce.accountId, ceId: ce._id, at: now(), online, cause: why, n });
        last.set(key, { online, cause: why, n });
        return;
      } catch (error) {
        if ((error as { code?: unknown }).code !== 11000) throw error;
        // Another process recorded a transition first (this one, or a later one): judge against what it stored.
        last.set(key, await latest(ce._id));
      }
    }
  }

  return {
    presence(ce, online, cause) {
      const key = String(ce._id);
      // One widget's transitions are recorded in order, each after the previous one is stored.
      const next = (chains.get(key) ?? Promise.resolve())
        .then(() => record(ce, online, cause))
        .catch((error: unknown) => {
          last.delete(key);
          deps.logger.warn({ widgetId: key, err: error }, 'reports: could not record the presence of a widget');
        });
      chains.set(key, next);
      void next.then(() => {
        if (chains.get(key) === next) chains.delete(key);
      });
      return next;
    },
  };
}
