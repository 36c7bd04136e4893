/**
 * Records, as they happen, the facts the reports need and the relay does not keep anyway: every online/offline
 * transition of a widget with its cause. (Conversation facts — start, trigger, first operator reply, rating,
 * feedback, message counts, end — are fields of the conversation written by the relay; offline messages are
 * their own documents.) Built once in main.ts and handed to the relay.
 */
import type { Types } from 'mongoose';
import type { Logger } from '../http/errorHandler';
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
  const last = new Map<string, { online: boolean; cause: PresenceCause } | null>();
  const chains = new Map<string, Promise<void>>();

  async function record(ce: { _id: Types.ObjectId; accountId: Types.ObjectId }, online: boolean, cause: PresenceCause): Promise<void> {
    const key = String(ce._id);
    if (!last.has(key)) {
      const latest = await deps.models.PresenceChange.findOne({ ceId: ce._id }).sort({ at: -1 }).lean();
      last.set(key, latest ? { online: latest.online, cause: latest.cause } : null);
    }
    const previous = last.get(key);
    if (previous && previous.online === online) return;
    const why = online && previous && LIFTED[previous.cause] ? LIFTED[previous.cause]! : cause;
    await deps.models.PresenceChange.create({ accountId: ce.accountId, ceId: ce._id, at: now(), online, cause: why });
    last.set(key, { online, cause: why });
  }

  return {
    presence(ce, online, cause) {
      const key = String(ce._id);
      // One widget's transitions are recorded in order, each after the previous one is stored.
      const next = (chains.get(key) ?? Promise.resolve())
        .then(() => record(ce, online, cause))
        .catch((error: unknown) => {
          last.delete(key);
          deps.logger.warn(`reports: could not record the presence of widget ${key}`, error);
        });
      chains.set(key, next);
      void next.then(() => {
        if (chains.get(key) === next) chains.delete(key);
      });
      return next;
    },
  };
}
