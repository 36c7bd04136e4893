/**
 * The day tallies of Reports → Team (InboxTally) kept from the shared inbox's events: what events add to them
 * (tallyChanges), the writes that add it once, and the tallying of events stored before the tallies existed, run at
 * start (tallyStoredInboxEvents, from migrations.ts). Events are written, and tallied, by
 * conversations/inboxEvents.ts.
 *
 * A conversation counts once a day per operator and figure: it is added to the day's set with a write that only
 * matches while the set lacks it, so two processes recording the same conversation at once count it once. Its
 * latest event of that figure on an earlier day (read from the conversation's events, a handful) goes into the
 * day's `since`, which lets a range of several days count it once too.
 */
import type { Collection, Document } from 'mongodb';
import { Types } from 'mongoose';
import type { Models } from '.';
import type { InboxEvent } from './InboxEvent';
import { type InboxTally, TALLIED_KINDS, TALLY_FIGURES, type TalliedKind, type TallyFigure } from './InboxTally';

const DAY_MS = 86_400_000;

/** What the tallies need of an event. */
export type TallySource = Pick<
  InboxEvent,
  'ceId' | 'conversationId' | 'kind' | 'at' | 'operatorId' | 'responseKind' | 'waitSecs' | 'withinTarget'
> & { _id: Types.ObjectId };

export const TALLY_SOURCE_FIELDS = {
  ceId: 1,
  conversationId: 1,
  kind: 1,
  at: 1,
  operatorId: 1,
  responseKind: 1,
  waitSecs: 1,
  withinTarget: 1,
} as const;

/** The UTC midnight that starts the day of `at`. */
export const utcDay = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

/** The tally's key: a widget's day, for the team or one operator. */
export function tallyId(ceId: Types.ObjectId, day: Date, operatorId: string | null): string {
  return `${String(ceId)}:${day.toISOString().slice(0, 10)}:${operatorId === null ? 'team' : `op:${operatorId}`}`;
}

/** A wait in seconds as a field name of the wait counts (no dot in a field name), and back. */
export const waitKey = (secs: number): string => `w${String(secs).replace('.', '_')}`;
export const waitOfKey = (key: string): number => Number(key.slice(1).replace('_', '.'));

export const isTallied = (kind: string): kind is TalliedKind => Object.hasOwn(TALLIED_KINDS, kind);

/** The scopes an event counts in: the whole team (null), and its operator when it has one. */
const scopesOf = (e: Pick<TallySource, 'operatorId'>): (string | null)[] => (e.operatorId ? [null, e.operatorId] : [null]);

type Fields = Pick<InboxTally, 'ceId' | 'day' | 'team' | 'operatorId'>;

/** A conversation counted in a day's figure, with the latest such event of an earlier day. */
export type TallyEntry = { id: string; fields: Fields; figure: TallyFigure; conversationId: Types.ObjectId; since: Date | null };

/** What the answers of a day add to a tally. */
export type TallyAddition = { id: string; fields: Fields; inc: Record<string, number> };

/**
 * What `fresh` events add to the tallies, given every stored event of their conversations (`history`, which may
 * include `fresh`): an entry per conversation, day, scope and figure, and the answers' counts per tally.
 */
export function tallyChanges(
  history: readonly TallySource[],
  fresh: readonly TallySource[],
): { entries: TallyEntry[]; additions: TallyAddition[] } {
  const entries = new Map<string, TallyEntry>();
  const additions = new Map<string, TallyAddition>();
  const byConversation = new Map<string, TallySource[]>();
  for (const e of history) {
    if (!isTallied(e.kind)) continue;
    const key = String(e.conversationId);
    const list = byConversation.get(key) ?? [];
    list.push(e);
    byConversation.set(key, list);
  }
  for (const e of fresh) {
    if (!isTallied(e.kind)) continue;
    const figure = TALLIED_KINDS[e.kind];
    const day = utcDay(e.at);
    for (const scope of scopesOf(e)) {
      const id = tallyId(e.ceId, day, scope);
      const fields: Fields = { ceId: e.ceId, day, team: scope === null, operatorId: scope ?? '' };
      const entryKey = `${id}|${figure}|${String(e.conversationId)}`;
      if (!entries.has(entryKey)) {
        let since: Date | null = null;
        for (const h of byConversation.get(String(e.conversationId)) ?? []) {
          const same = h.kind === e.kind && (scope === null || h.operatorId === scope);
          if (same && h.at < day && (!since || h.at > since)) since = h.at;
        }
        entries.set(entryKey, { id, fields, figure, conversationId: e.conversationId, since });
      }
      if (e.kind === 'response' && e.responseKind) {
        const addition = additions.get(id) ?? { id, fields, inc: {} };
        const inc = addition.inc;
        const add = (field: string) => {
          inc[field] = (inc[field] ?? 0) + 1;
        };
        add(e.responseKind === 'first' ? 'firstResponses' : 'nextResponses');
        if (typeof e.waitSecs === 'number' && Number.isFinite(e.waitSecs))
          add(`${e.responseKind === 'first' ? 'firstWaits' : 'nextWaits'}.${waitKey(e.waitSecs)}`);
        if (e.withinTarget === true || e.withinTarget === false) add('targeted');
        if (e.withinTarget === true) add('withinTarget');
        additions.set(id, addition);
      }
    }
  }
  return { entries: [...entries.values()], additions: [...additions.values()] };
}

/** The tallies as the driver writes them (ids are strings, which the model's collection type does not know). */
const talliesOf = (models: Pick<Models, 'InboxTally'>) => models.InboxTally.collection as unknown as Collection<InboxTally>;

const isDuplicateKey = (error: unknown) => (error as { code?: unknown }).code === 11000;

/**
 * Adds events' entries and answers to their tallies, live or at the start's tallying of a stored history: one upsert a
 * tally, all in one command, whose pipeline adds each conversation to its figure's set (with its count and `since`)
 * only while the set lacks it, and adds the answers' counts, all in one atomic change of the tally. Two writers of the
 * same conversation at once (two processes, or a start's tallying and a live event) count it once; a write whose
 * insert of a new tally lost to another's (E11000 on its id) is made again, and matches then.
 */
export async function applyRecorded(models: Pick<Models, 'InboxTally'>, entries: TallyEntry[], additions: TallyAddition[]): Promise<void> {
  const writes = new Map<string, { fields: Fields; entries: TallyEntry[]; inc: Record<string, number> }>();
  const of = (id: string, fields: Fields) => {
    const found = writes.get(id) ?? { fields, entries: [], inc: {} };
    writes.set(id, found);
    return found;
  };
  for (const entry of entries) of(entry.id, entry.fields).entries.push(entry);
  for (const addition of additions) {
    const inc = of(addition.id, addition.fields).inc;
    for (const [field, n] of Object.entries(addition.inc)) inc[field] = (inc[field] ?? 0) + n;
  }
  let ops = [...writes].map(([id, write]) => ({
    updateOne: { filter: { _id: id }, update: recordedPipeline(write.fields, write.entries, write.inc), upsert: true },
  }));
  for (let attempt = 0; ops.length > 0; attempt++) {
    try {
      await talliesOf(models).bulkWrite(ops, { ordered: false });
      return;
    } catch (error) {
      const failed = (error as { writeErrors?: { index: number; code?: number }[] }).writeErrors;
      if (!failed?.length || attempt >= 2 || !failed.every((e) => e.code === 11000)) throw error;
      ops = failed.map((e) => ops[e.index]);
    }
  }
}

/**
 * The pipeline of one tally's write. Whether each conversation is new to its figure is read first, into a field of
 * its own (an expression of a stage may see the fields set before it in the same stage), then the figures, counts and
 * insert-only fields are set from it, and the flags removed.
 */
function recordedPipeline(fields: Fields, entries: TallyEntry[], inc: Record<string, number>): Document[] {
  const flag = (i: number) => `_recordedNew${i}`;
  const held = (figure: string) => ({ $ifNull: [`$convs.${figure}`, []] });
  const flags: Document = {};
  entries.forEach((e, i) => {
    flags[flag(i)] = { $not: [{ $in: [{ $literal: e.conversationId }, held(e.figure)] }] };
  });
  const set: Document = {};
  for (const [field, value] of Object.entries(fields)) set[field] = { $ifNull: [`$${field}`, { $literal: value }] };
  for (const figure of new Set(entries.map((e) => e.figure))) {
    const mine = entries.map((e, i) => ({ e, on: `$${flag(i)}` })).filter(({ e }) => e.figure === figure);
    set[`n.${figure}`] = { $add: [{ $ifNull: [`$n.${figure}`, 0] }, ...mine.map(({ on }) => ({ $cond: [on, 1, 0] }))] };
    set[`convs.${figure}`] = {
      $concatArrays: [held(figure), ...mine.map(({ e, on }) => ({ $cond: [on, [{ $literal: e.conversationId }], []] }))],
    };
    const dated = mine.filter(({ e }) => e.since);
    if (dated.length)
      set[`since.${figure}`] = {
        $concatArrays: [{ $ifNull: [`$since.${figure}`, []] }, ...dated.map(({ e, on }) => ({ $cond: [on, [{ $literal: e.since }], []] }))],
      };
  }
  for (const [field, n] of Object.entries(inc)) set[field] = { $add: [{ $ifNull: [`$${field}`, 0] }, n] };
  const stages: Document[] = [];
  if (entries.length) stages.push({ $set: flags });
  stages.push({ $set: set });
  if (entries.length) stages.push({ $unset: entries.map((_, i) => flag(i)) });
  return stages;
}

/**
 * Tallies the events stored without it (written before the tallies existed), once. Reads the events in pages of
 * `pageSize` in conversation order, along the {conversationId, at} index (no command holds the store long, whatever the
 * number of events, and each page starts where the last ended: the embedded store keeps no ordered view of ids, so
 * pages in id order sorted every event again for each page, which made a large history's tallying quadratic). For the
 * conversations of a page that have untallied events it claims those with this run's mark (so two processes starting
 * together never tally one twice), reads all their events and writes each tally they change once. A full page leaves
 * its last conversation to the next one, which starts at it: its events past the page may be untallied. Answers how
 * many events it tallied; a start with none left costs one count.
 */
export async function tallyStoredInboxEvents(models: Pick<Models, 'InboxEvent' | 'InboxTally'>, pageSize = 2000): Promise<number> {
  const events = models.InboxEvent.collection;
  if (!(await events.countDocuments(UNTALLIED))) return 0;
  const mark = `start:${String(new Types.ObjectId())}`;
  type Listed = Pick<StoredEvent, '_id' | 'conversationId' | 'talliedBy'>;
  let tallied = 0;
  /** Where the next page starts: at a conversation (its events were left to it) or after one. */
  let from: { conversationId: Types.ObjectId; at: boolean } | null = null;
  for (;;) {
    const listed: Listed[] = await events
      .find<Listed>(from ? { conversationId: { [from.at ? '$gte' : '$gt']: from.conversationId } } : {}, {
        projection: { conversationId: 1, talliedBy: 1 },
      })
      .sort({ conversationId: 1, at: 1 })
      .limit(pageSize)
      .toArray();
    if (!listed.length) break;
    const last = listed[listed.length - 1].conversationId;
    const full = listed.length === pageSize;
    // A conversation that fills a page alone is claimed whole here (the claim reads all its events).
    const alone = String(listed[0].conversationId) === String(last);
    const leaveLast = full && !alone;
    from = { conversationId: last, at: leaveLast };
    const untallied = listed.filter((e) => e.talliedBy === undefined && !(leaveLast && String(e.conversationId) === String(last)));
    const ids = alone ? [last] : [...new Map(untallied.map((e) => [String(e.conversationId), e.conversationId])).values()];
    if (ids.length) tallied += await tallyClaimed(models, ids, mark);
    if (!full) break;
  }
  return tallied;
}

/** An event as the upgrade's tallying reads it, and the events it has not tallied yet. */
type StoredEvent = TallySource & { talliedBy?: string };
const UNTALLIED = { talliedBy: { $exists: false } };

/**
 * Claims the untallied events of these conversations with the run's mark, reads all their events and writes each
 * tally they change once; answers how many events this run claimed (none when another process had them all).
 */
async function tallyClaimed(models: Pick<Models, 'InboxEvent' | 'InboxTally'>, ids: Types.ObjectId[], mark: string): Promise<number> {
  const events = models.InboxEvent.collection;
  const claimed = await events.updateMany({ conversationId: { $in: ids }, ...UNTALLIED }, { $set: { talliedBy: mark } });
  if (!claimed.modifiedCount) return 0;
  const history = await events
    .find<StoredEvent>({ conversationId: { $in: ids } }, { projection: { ...TALLY_SOURCE_FIELDS, talliedBy: 1 } })
    .toArray();
  const fresh = history.filter((e) => e.talliedBy === mark);
  const { entries, additions } = tallyChanges(history, fresh);
  await applyRecorded(models, entries, additions);
  // Month rows built before these events were tallied (by a report another process ran) are built again.
  await dropMonthsOf(models, fresh, new Date());
  return claimed.modifiedCount;
}

/** A tally as the report and the month rows read it: without its conversations. */
export type TallyRow = Omit<InboxTally, 'convs' | 'ceId' | 'day'>;
export const TALLY_ROW_PROJECTION = { convs: 0, ceId: 0, day: 0 } as const;

/** What tally rows of one scope add up to (the figures of `n` and the answers' counts), as a month row holds it. */
export type TallySum = Pick<
  InboxTally,
  'n' | 'since' | 'firstResponses' | 'nextResponses' | 'firstWaits' | 'nextWaits' | 'targeted' | 'withinTarget'
>;

/**
 * Sums rows of one scope from the instant `from` on (the rows lie after it): a conversation counts once per figure,
 * in the row where it came first (a row's conversations whose earlier event is at `from` or later are taken away),
 * and `since` keeps the earlier events before `from`. Over the day rows of a month from its first day, this is the
 * month's row; over the rows of a report's range from its start, the range's figures.
 */
export function sumTallies(rows: readonly Partial<TallyRow>[], from: Date): TallySum {
  const sum: TallySum = {
    n: {},
    since: {},
    firstResponses: 0,
    nextResponses: 0,
    firstWaits: {},
    nextWaits: {},
    targeted: 0,
    withinTarget: 0,
  };
  const add = (counts: Record<string, number>, more: Record<string, number> | undefined) => {
    for (const [key, n] of Object.entries(more ?? {})) counts[key] = (counts[key] ?? 0) + n;
  };
  for (const row of rows) {
    for (const figure of TALLY_FIGURES) {
      const n = row.n?.[figure] ?? 0;
      if (!n) continue;
      let repeated = 0;
      for (const at of row.since?.[figure] ?? []) {
        if (at >= from) repeated += 1;
        else (sum.since[figure] ??= []).push(at);
      }
      sum.n[figure] = (sum.n[figure] ?? 0) + n - repeated;
    }
    sum.firstResponses += row.firstResponses ?? 0;
    sum.nextResponses += row.nextResponses ?? 0;
    sum.targeted += row.targeted ?? 0;
    sum.withinTarget += row.withinTarget ?? 0;
    add(sum.firstWaits, row.firstWaits);
    add(sum.nextWaits, row.nextWaits);
  }
  return sum;
}

/** The first instant of the UTC month of `at`, and of the month after it. */
export const utcMonth = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
export const nextUtcMonth = (month: Date): Date => new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));

/**
 * A month's tallies are final, and its row may be built, a day after it ended: the shared inbox records its events as
 * they happen, so none comes later than that (one that does drops the month's rows: dropMonthsOf).
 */
export const isClosedMonth = (month: Date, now: Date): boolean => nextUtcMonth(month).getTime() + DAY_MS <= now.getTime();

const monthScope = (row: Pick<InboxTally, 'team' | 'operatorId'>) => (row.team ? 'team' : `op:${row.operatorId}`);

/**
 * The month rows of a widget's closed UTC months from `from` (a month's first instant) on, as long as they are whole
 * before `to` and closed at `now`: the months a report reads from them, which it reads from `from` up to `until`.
 * A month without its rows yet has them built from its day rows (sumTallies) and stored; a month with nothing tallied
 * gets an empty team row, so it is not read again.
 */
export async function monthTallies(
  models: Pick<Models, 'InboxTally'>,
  ceId: Types.ObjectId,
  from: Date,
  to: Date,
  now: Date,
): Promise<{ rows: TallyRow[]; until: Date }> {
  const months: Date[] = [];
  for (let m = from; nextUtcMonth(m) <= to && isClosedMonth(m, now); m = nextUtcMonth(m)) months.push(m);
  const until = months.length ? nextUtcMonth(months[months.length - 1]) : from;
  if (!months.length) return { rows: [], until };
  const tallies = talliesOf(models);
  const stored = await tallies
    .find<TallyRow & { day: Date }>({ ceId, month: true, day: { $gte: from, $lt: until } }, { projection: { convs: 0, ceId: 0 } })
    .toArray();
  const built = new Set(stored.filter((r) => r.team).map((r) => r.day.getTime()));
  const missing = months.filter((m) => !built.has(m.getTime()));
  const fresh = await Promise.all(missing.map((month) => buildMonth(models, ceId, month)));
  return { rows: [...stored.filter((r) => !missing.some((m) => m.getTime() === r.day.getTime())), ...fresh.flat()], until };
}

/** Sums a closed month's day rows per scope into its month rows, stores them and answers them. */
async function buildMonth(models: Pick<Models, 'InboxTally'>, ceId: Types.ObjectId, month: Date): Promise<TallyRow[]> {
  const tallies = talliesOf(models);
  const days = await tallies
    .find<TallyRow>({ ceId, day: { $gte: month, $lt: nextUtcMonth(month) }, month: { $ne: true } }, { projection: TALLY_ROW_PROJECTION })
    .toArray();
  const byScope = new Map<string, TallyRow[]>([['team', []]]);
  for (const row of days) {
    const scope = monthScope(row);
    const list = byScope.get(scope);
    if (list) list.push(row);
    else byScope.set(scope, [row]);
  }
  const rows = [...byScope.entries()].map(([scope, list]): InboxTally => {
    const team = scope === 'team';
    const operatorId = team ? '' : scope.slice(3);
    return {
      _id: `${String(ceId)}:${month.toISOString().slice(0, 7)}:${scope}`,
      ceId,
      day: month,
      month: true,
      team,
      operatorId,
      convs: {},
      ...sumTallies(list, month),
    };
  });
  // The same sum whichever process builds it: a second build replaces the first with what it was, and one that
  // loses the race to insert a row (E11000) leaves the other's.
  try {
    await tallies.bulkWrite(
      rows.map((row) => ({ replaceOne: { filter: { _id: row._id }, replacement: row, upsert: true } })),
      { ordered: false },
    );
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
  return rows.map(({ convs: _convs, ceId: _ce, day: _day, ...row }) => row);
}

/**
 * Drops the month rows of the closed months `events` fall in (recorded late, or tallied by an upgrade's start): the
 * next report builds them again from their day rows.
 */
export async function dropMonthsOf(
  models: Pick<Models, 'InboxTally'>,
  events: readonly Pick<TallySource, 'ceId' | 'at'>[],
  now: Date,
): Promise<void> {
  const months = new Map<string, { ceId: Types.ObjectId; day: Date }>();
  for (const e of events) {
    const day = utcMonth(e.at);
    if (isClosedMonth(day, now)) months.set(`${String(e.ceId)}:${day.getTime()}`, { ceId: e.ceId, day });
  }
  for (const { ceId, day } of months.values()) await talliesOf(models).deleteMany({ ceId, month: true, day });
}
