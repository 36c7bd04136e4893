/**
 * The Team report of one widget over a range (docs/reports.md, Team): per operator what the shared inbox recorded
 * (InboxEvents: assignments, answers with their business-time waits and targets, ends) and the ratings of the
 * conversations they had; per tag the conversations carrying it and its trend. Three aggregations, all grouped next
 * to the data with the stages and expressions MongoDB 5 and the embedded store's native grouping share ($group on
 * field paths, $cond, comparisons): the events of the range on {ceId, at}, the conversations on
 * {ceId, discarded, startedAt}. Medians are taken in Parley from per-second counts of the waits (MongoDB 5 has no
 * $median), so a year of answers travels as a few thousand rows.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import { TALLIED_KINDS, TALLY_FIGURES, type TalliedKind } from '../models/InboxTally';
import {
  monthTallies,
  nextUtcMonth,
  sumTallies,
  TALLY_ROW_PROJECTION,
  TALLY_SOURCE_FIELDS,
  type TallyRow,
  type TallySource,
  utcMonth,
  waitOfKey,
} from '../models/inboxTallies';
import type { OperatorRow, TagRow, TeamFigures, TeamReport, TrendBucket, TrendStep } from '../shared/reports';
import { reportedChats } from './overview';
import type { ReportRange } from './range';

/** An operator as Slack shows them; `known` false when Slack could not say (the report then uses what it stored). */
export type OperatorProfile = { slackName: string; image: string; known: boolean };
/** Operators' names and pictures in Slack (the Slack side's SlackAuthors, passed in by main.ts). */
export interface OperatorDirectory {
  lookup(teamId: string, userId: string): Promise<OperatorProfile>;
}

/** Trends per day up to this many days, per week up to a year, else per month. */
const DAILY_UP_TO = 31;
const WEEKLY_UP_TO = 371;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The trend's buckets over the range's days: their first days, and the instants that start them. The days are
 * already the zone's (reportRange), so which one opens a week or a month is calendar arithmetic on its date.
 */
export function trendBuckets(range: Pick<ReportRange, 'days'>): { step: TrendStep; buckets: TrendBucket[]; starts: Date[] } {
  const step: TrendStep = range.days.length <= DAILY_UP_TO ? 'day' : range.days.length <= WEEKLY_UP_TO ? 'week' : 'month';
  const buckets: TrendBucket[] = [];
  const starts: Date[] = [];
  range.days.forEach((day, i) => {
    const [year, month, date] = day.date.split('-').map(Number);
    const monday = new Date(Date.UTC(year, month - 1, date)).getUTCDay() === 1;
    const opens = i === 0 || step === 'day' || (step === 'week' ? monday : date === 1);
    if (!opens) return;
    buckets.push({ start: day.date, label: step === 'month' ? `${MONTHS[month - 1]} ${year}` : day.label });
    starts.push(day.start);
  });
  return { step, buckets, starts };
}

/**
 * The bucket of `$startedAt` as a binary tree of $cond on the buckets' first instants: about log2(n) comparisons a
 * conversation, with nothing but $cond and $lt (no $switch, $dateTrunc or $function, which the embedded store
 * would hand to mingo).
 */
export function bucketExpression(starts: Date[], lo = 0, hi = starts.length - 1): unknown {
  if (lo >= hi) return lo;
  const mid = (lo + hi + 1) >>> 1;
  return { $cond: [{ $lt: ['$startedAt', starts[mid]] }, bucketExpression(starts, lo, mid - 1), bucketExpression(starts, mid, hi)] };
}

/** The median of counted values (value → how many times), the mean of the two middle ones for an even count. */
export function medianOf(counts: Map<number, number>): number | null {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (!total) return null;
  const sorted = [...counts.entries()].sort((a, b) => a[0] - b[0]);
  const at = (k: number) => {
    let seen = 0;
    for (const [value, n] of sorted) {
      seen += n;
      if (seen > k) return value;
    }
    return sorted[sorted.length - 1][0];
  };
  const low = at(Math.floor((total - 1) / 2));
  const high = at(Math.floor(total / 2));
  return Math.round((low + high) / 2);
}

/** What the events of a range add up to, per operator (by Slack user id) and for the whole team. */
type EventFigures = { byOperator: Map<string, Acc>; team: Acc };

const DAY_MS = 86_400_000;
type RangeEvent = TallySource & { _id: Types.ObjectId };

/**
 * The events of the range, counted as docs/reports.md says: the whole UTC days inside the range from their tallies
 * (InboxTally: the closed UTC months among them from their month rows, the other days from their day rows; a row for
 * the team and for each operator who did something), the hours before the first and after the last of them from the
 * events themselves (through {ceId, at}). A conversation counts once per figure and operator in the range: a row takes
 * away its conversations whose earlier event (`since`) is in the range (sumTallies), and an event after the last
 * whole day counts when its conversation had none in the range before.
 */
async function eventFigures(
  models: Models,
  ce: Pick<ChatEndpointDocument, '_id'>,
  range: Pick<ReportRange, 'start' | 'end'>,
  now: Date,
): Promise<EventFigures> {
  const { start, end } = range;
  const firstDay = new Date(Math.ceil(start.getTime() / DAY_MS) * DAY_MS);
  const lastDay = new Date(Math.floor(end.getTime() / DAY_MS) * DAY_MS);
  const days = firstDay < lastDay;
  const before = days ? firstDay : end;
  const eventsIn = (from: Date, to: Date) =>
    from < to
      ? models.InboxEvent.collection
          .find<RangeEvent>({ ceId: ce._id, at: { $gte: from, $lt: to } }, { projection: TALLY_SOURCE_FIELDS })
          .toArray()
      : Promise.resolve([]);
  const dayRows = (from: Date, to: Date) =>
    from < to
      ? models.InboxTally.collection
          .find<TallyRow>({ ceId: ce._id, day: { $gte: from, $lt: to }, month: { $ne: true } }, { projection: TALLY_ROW_PROJECTION })
          .toArray()
      : Promise.resolve([]);
  // The whole UTC months from the first one that starts on or after the first whole day, while they are closed.
  const month = utcMonth(firstDay);
  const monthsFrom = month.getTime() === firstDay.getTime() ? month : nextUtcMonth(month);
  const tallied = async () => {
    if (!days) return [];
    const months = await monthTallies(models, ce._id, monthsFrom, lastDay, now);
    if (months.until <= monthsFrom) return dayRows(firstDay, lastDay);
    const [head, tail] = await Promise.all([dayRows(firstDay, monthsFrom), dayRows(months.until, lastDay)]);
    return [...head, ...months.rows, ...tail];
  };
  const [tallies, head, tail] = await Promise.all([
    tallied(),
    eventsIn(start, before),
    days ? eventsIn(lastDay, end) : Promise.resolve([]),
  ]);

  const byOperator = new Map<string, Acc>();
  const team = emptyAcc();
  const accOf = (operatorId: string | null) => {
    if (operatorId === null) return team;
    const found = byOperator.get(operatorId) ?? emptyAcc();
    byOperator.set(operatorId, found);
    return found;
  };

  const byScope = new Map<string | null, TallyRow[]>();
  for (const t of tallies) {
    const scope = t.team ? null : t.operatorId;
    const list = byScope.get(scope) ?? [];
    list.push(t);
    byScope.set(scope, list);
  }
  for (const [scope, rows] of byScope) {
    const sum = sumTallies(rows, start);
    const a = accOf(scope);
    for (const figure of TALLY_FIGURES) a.figures[figure] += sum.n[figure] ?? 0;
    a.figures.firstResponses += sum.firstResponses;
    a.figures.nextResponses += sum.nextResponses;
    a.figures.targeted += sum.targeted;
    a.figures.withinTarget += sum.withinTarget;
    for (const [key, n] of Object.entries(sum.firstWaits)) addCount(a.first, waitOfKey(key), n);
    for (const [key, n] of Object.entries(sum.nextWaits)) addCount(a.next, waitOfKey(key), n);
  }

  // The events around the whole days: those before them are in the range from its start; one after them counts its
  // conversation unless the conversation had such an event in the range before (read through {conversationId, at}).
  const counted = new Set<string>();
  const keyOf = (e: RangeEvent, scope: string | null) => `${scope ?? ''}|${e.kind}|${String(e.conversationId)}`;
  const tallyEvent = (e: RangeEvent, seen: (key: string) => boolean) => {
    const figure = TALLIED_KINDS[e.kind as TalliedKind];
    if (!figure) return;
    for (const scope of e.operatorId ? [null, e.operatorId] : [null]) {
      const a = accOf(scope);
      const key = keyOf(e, scope);
      if (!seen(key)) a.figures[figure] += 1;
      counted.add(key);
      if (e.kind === 'response' && e.responseKind) {
        if (e.responseKind === 'first') a.figures.firstResponses += 1;
        else a.figures.nextResponses += 1;
        if (typeof e.waitSecs === 'number' && Number.isFinite(e.waitSecs))
          addCount(e.responseKind === 'first' ? a.first : a.next, e.waitSecs, 1);
        if (e.withinTarget === true || e.withinTarget === false) a.figures.targeted += 1;
        if (e.withinTarget === true) a.figures.withinTarget += 1;
      }
    }
  };
  const inOrder = (list: RangeEvent[]) =>
    list.sort((x, y) => x.at.getTime() - y.at.getTime() || String(x._id).localeCompare(String(y._id)));
  for (const e of inOrder(head)) tallyEvent(e, (key) => counted.has(key));
  if (tail.length) {
    const ids = [...new Map(tail.map((e) => [String(e.conversationId), e.conversationId])).values()];
    const earlier = await models.InboxEvent.collection
      .find<RangeEvent>({ conversationId: { $in: ids }, at: { $gte: before, $lt: lastDay } }, { projection: TALLY_SOURCE_FIELDS })
      .toArray();
    const inDays = new Set<string>();
    for (const e of earlier) {
      if (!TALLIED_KINDS[e.kind as TalliedKind] || String(e.ceId) !== String(ce._id)) continue;
      for (const scope of e.operatorId ? [null, e.operatorId] : [null]) inDays.add(keyOf(e, scope));
    }
    for (const e of inOrder(tail)) tallyEvent(e, (key) => counted.has(key) || inDays.has(key));
  }
  // Only operators: the '' of an end nobody had is the team's alone.
  byOperator.delete('');
  return { byOperator, team };
}

function addCount(counts: Map<number, number>, value: number, n: number): void {
  counts.set(value, (counts.get(value) ?? 0) + n);
}

type ConversationFacets = {
  /** Per operator who had conversations (assignee, else last answering operator; '' nobody): ratings and stored names. */
  people: { _id: string; up: number; down: number; name: string | null; avatar: string | null }[];
  /** Per combination of tags and bucket of the trend. */
  tags: { _id: { t?: unknown; b: number }; n: number }[];
  total: { _id: null; n: number }[];
};

function conversationFacets(
  models: Models,
  ce: Pick<ChatEndpointDocument, '_id'>,
  range: Pick<ReportRange, 'start' | 'end'>,
  starts: Date[],
) {
  const who = { $cond: [{ $gt: ['$assigneeId', ''] }, '$assigneeId', { $ifNull: ['$agentSlackUserId', ''] }] };
  const theirs = (field: string) => ({ $max: { $cond: [{ $eq: ['$agentSlackUserId', who] }, field, null] } });
  const count = (condition: unknown) => ({ $sum: { $cond: [condition, 1, 0] } });
  return models.Conversation.collection
    .aggregate<ConversationFacets>([
      { $match: reportedChats(ce, range) },
      {
        $facet: {
          people: [
            {
              $group: {
                _id: who,
                up: count({ $eq: ['$rating', 'up'] }),
                down: count({ $eq: ['$rating', 'down'] }),
                name: theirs('$agentName'),
                avatar: theirs('$agentAvatarUrl'),
              },
            },
          ],
          tags: [{ $group: { _id: { t: '$tags', b: bucketExpression(starts) }, n: { $sum: 1 } } }],
          total: [{ $group: { _id: null, n: { $sum: 1 } } }],
        },
      },
    ])
    .toArray();
}

const emptyFigures = (): TeamFigures => ({
  assigned: 0,
  answered: 0,
  ended: 0,
  firstResponses: 0,
  medianFirstResponseSecs: null,
  nextResponses: 0,
  medianNextResponseSecs: null,
  targeted: 0,
  withinTarget: 0,
  withinTargetPercent: null,
  ratedUp: 0,
  ratedDown: 0,
});

/** What one operator's (or the team's) figures are made of before the medians are taken. */
type Acc = { figures: TeamFigures; first: Map<number, number>; next: Map<number, number> };
const emptyAcc = (): Acc => ({ figures: emptyFigures(), first: new Map(), next: new Map() });

function finish({ figures, first, next }: Acc): TeamFigures {
  return {
    ...figures,
    medianFirstResponseSecs: medianOf(first),
    medianNextResponseSecs: medianOf(next),
    withinTargetPercent: figures.targeted ? Math.round((figures.withinTarget / figures.targeted) * 1000) / 10 : null,
  };
}

/** The whole report; `operators` names the Slack users (what conversations stored stands in when it cannot). */
export async function teamReport(
  models: Models,
  ce: Pick<ChatEndpointDocument, '_id' | 'slackTeamId'>,
  range: ReportRange,
  operators?: OperatorDirectory,
  /** The time the report is asked at: which UTC months are closed (isClosedMonth). */
  now = new Date(),
): Promise<TeamReport> {
  const { step, buckets, starts } = trendBuckets(range);
  const [{ byOperator, team }, [chats]] = await Promise.all([
    eventFigures(models, ce, range, now),
    conversationFacets(models, ce, range, starts),
  ]);
  const acc = (id: string) => {
    const found = byOperator.get(id) ?? emptyAcc();
    byOperator.set(id, found);
    return found;
  };

  const stored = new Map<string, { name: string; avatar: string }>();
  for (const p of chats?.people ?? []) {
    team.figures.ratedUp += p.up;
    team.figures.ratedDown += p.down;
    if (!p._id) continue;
    if (p.up || p.down || byOperator.has(p._id)) {
      const a = acc(p._id);
      a.figures.ratedUp += p.up;
      a.figures.ratedDown += p.down;
    }
    stored.set(p._id, { name: p.name ?? '', avatar: p.avatar ?? '' });
  }

  const rows: OperatorRow[] = await Promise.all(
    [...byOperator.entries()].map(async ([id, a]) => {
      const slack = operators && ce.slackTeamId ? await operators.lookup(ce.slackTeamId, id) : undefined;
      const kept = stored.get(id);
      const name = slack?.known ? slack.slackName : kept?.name || id;
      const avatarUrl = slack?.known ? slack.image : (kept?.avatar ?? '');
      return { id, name, avatarUrl, ...finish(a) };
    }),
  );
  rows.sort((a, b) => b.answered - a.answered || b.assigned - a.assigned || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));

  return {
    operators: rows,
    team: finish(team),
    conversations: chats?.total[0]?.n ?? 0,
    ...tagFigures(chats?.tags ?? [], buckets),
    step,
    buckets,
  };
}

/** Per tag, from the counts per combination of tags and bucket: each conversation counts once for each of its tags. */
function tagFigures(groups: ConversationFacets['tags'], buckets: TrendBucket[]): { tagged: number; tags: TagRow[] } {
  const byTag = new Map<string, TagRow>();
  let tagged = 0;
  for (const { _id: g, n } of groups) {
    const tags = Array.isArray(g.t) ? [...new Set(g.t.filter((t): t is string => typeof t === 'string' && t !== ''))] : [];
    if (tags.length) tagged += n;
    for (const tag of tags) {
      const row = byTag.get(tag) ?? { tag, conversations: 0, trend: buckets.map(() => 0) };
      row.conversations += n;
      if (g.b >= 0 && g.b < row.trend.length) row.trend[g.b] += n;
      byTag.set(tag, row);
    }
  }
  return { tagged, tags: [...byTag.values()].sort((a, b) => b.conversations - a.conversations || a.tag.localeCompare(b.tag)) };
}
