/**
 * The one way the shared inbox's events are written: every InboxEvent goes through recordInboxEvents, which also adds
 * it to the day tallies Reports → Team reads instead of the events (models/inboxTallies.ts), and drops the month rows
 * of a closed month it falls in.
 */
import { Types } from 'mongoose';
import type { Models } from '../models';
import type { Conversation } from '../models/Conversation';
import type { InboxEvent } from '../models/InboxEvent';
import {
  applyRecorded,
  dropMonthsOf,
  isTallied,
  TALLY_SOURCE_FIELDS,
  type TallySource,
  tallyChanges,
  utcDay,
} from '../models/inboxTallies';

/** An event to record: `at` defaults to now, `operatorId` to '' (nobody). */
export type NewInboxEvent = Omit<InboxEvent, 'at' | 'operatorId' | 'talliedBy'> & { at?: Date; operatorId?: string };

/**
 * Stores the events (in one write) and adds them to the day tallies of Reports → Team. Every InboxEvent is written
 * here: an event written around it would be missing from the report until the next start tallies it. `openedAt`: when
 * the events' one conversation started, when the caller read it (a conversation opened on the events' day has no
 * earlier day's event for the tallies to read).
 */
export async function recordInboxEvents(
  models: Pick<Models, 'InboxEvent' | 'InboxTally'>,
  events: readonly NewInboxEvent[],
  known: { openedAt?: Date } = {},
): Promise<void> {
  if (!events.length) return;
  const now = new Date();
  const docs = events.map((e) => ({
    ...e,
    _id: new Types.ObjectId(),
    at: e.at ?? now,
    operatorId: e.operatorId ?? '',
    talliedBy: 'record',
  }));
  await models.InboxEvent.insertMany(docs);
  const fresh = docs.filter((e) => isTallied(e.kind));
  if (!fresh.length) return;
  const conversationIds = [...new Map(fresh.map((e) => [String(e.conversationId), e.conversationId])).values()];
  // The tallies read a conversation's earlier events of the same kinds on days before (their `since`), no others.
  const lastDay = Math.max(...fresh.map((e) => utcDay(e.at).getTime()));
  const kinds = [...new Set(fresh.map((e) => e.kind))];
  // A minute's margin: another process's clock may have dated an event of the conversation just before midnight.
  const opened = known.openedAt && conversationIds.length === 1 ? known.openedAt.getTime() - 60_000 : Number.NEGATIVE_INFINITY;
  const history =
    opened >= lastDay
      ? []
      : await models.InboxEvent.find(
          { conversationId: { $in: conversationIds }, kind: { $in: kinds }, at: { $lt: new Date(lastDay) } },
          TALLY_SOURCE_FIELDS,
        )
          .lean<TallySource[]>()
          .exec();
  const { entries, additions } = tallyChanges(history, fresh);
  await applyRecorded(models, entries, additions);
  // Events are recorded as they happen: one in a month already closed drops its month rows (none, all but always).
  await dropMonthsOf(models, fresh, new Date());
}

/** What every event of conversation `c` says of it (account, widget, conversation, workspace), with `fields` of its kind. */
export function eventOf(
  c: Pick<Conversation, 'accountId' | 'ceId' | 'slackTeamId'> & { _id: Types.ObjectId },
  fields: Omit<NewInboxEvent, 'accountId' | 'ceId' | 'conversationId' | 'teamId'>,
): NewInboxEvent {
  return { accountId: c.accountId, ceId: c.ceId, conversationId: c._id, teamId: c.slackTeamId, ...fields };
}

/** One event: recordInboxEvents of it alone. */
export function recordInboxEvent(
  models: Pick<Models, 'InboxEvent' | 'InboxTally'>,
  event: NewInboxEvent,
  known: { openedAt?: Date } = {},
): Promise<void> {
  return recordInboxEvents(models, [event], known);
}
