/**
 * The Team report of one widget over a range (docs/reports.md, Team): per operator what the shared inbox recorded
 * (InboxEvents: assignments, answers with their business-time waits and targets, ends) and the ratings of the
 * conversations they had; per tag the conversations carrying it and its trend. Three aggregations, all grouped next
 * to the data with the stages and expressions MongoDB 5 and the embedded store's native grouping share ($group on
 * field paths, $cond, comparisons): the events of the range on {ceId, at}, the conversations on
 * {ceId, discarded, startedAt}. Medians are taken in Parley from per-second counts of the waits (MongoDB 5 has no
 * $median), so a year of answers travels as a few thousand rows.
 */
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
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

type EventFacets = {
  /** Per operator and kind, the number of different conversations. */
  convs: { _id: { o: string | null; k: string }; n: number }[];
  /** Per kind, the number of different conversations for the whole team. */
  teamConvs: { _id: string; n: number }[];
};

/** The range's events: a few rows per operator and kind, so one $facet document holds them all. */
function eventFacets(models: Models, ce: Pick<ChatEndpointDocument, '_id'>, range: Pick<ReportRange, 'start' | 'end'>) {
  return models.InboxEvent.collection
    .aggregate<EventFacets>([
      { $match: { ceId: ce._id, at: { $gte: range.start, $lt: range.end } } },
      {
        $facet: {
          convs: [
            { $group: { _id: { o: '$operatorId', k: '$kind', c: '$conversationId' } } },
            { $group: { _id: { o: '$_id.o', k: '$_id.k' }, n: { $sum: 1 } } },
          ],
          teamConvs: [{ $group: { _id: { k: '$kind', c: '$conversationId' } } }, { $group: { _id: '$_id.k', n: { $sum: 1 } } }],
        },
      },
    ])
    .toArray();
}

/** Answers per operator, kind of answer, wait in seconds and target outcome. */
type WaitGroup = { _id: { o: string | null; r: 'first' | 'next' | null; w: number | null; t: boolean | null }; n: number };

/**
 * The range's answers counted per operator, kind, wait and target outcome: as many rows as different waits, so
 * they come as a cursor (never one $facet document, which MongoDB caps at 16 MB).
 */
function waitGroups(models: Models, ce: Pick<ChatEndpointDocument, '_id'>, range: Pick<ReportRange, 'start' | 'end'>) {
  return models.InboxEvent.collection
    .aggregate<WaitGroup>([
      { $match: { ceId: ce._id, at: { $gte: range.start, $lt: range.end }, kind: 'response' } },
      {
        $group: {
          _id: {
            o: '$operatorId',
            r: { $ifNull: ['$responseKind', null] },
            w: { $ifNull: ['$waitSecs', null] },
            t: { $ifNull: ['$withinTarget', null] },
          },
          n: { $sum: 1 },
        },
      },
    ])
    .toArray();
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
): Promise<TeamReport> {
  const { step, buckets, starts } = trendBuckets(range);
  const [[events], waits, [chats]] = await Promise.all([
    eventFacets(models, ce, range),
    waitGroups(models, ce, range),
    conversationFacets(models, ce, range, starts),
  ]);

  const byOperator = new Map<string, Acc>();
  const acc = (id: string) => {
    const found = byOperator.get(id) ?? emptyAcc();
    byOperator.set(id, found);
    return found;
  };
  const team = emptyAcc();
  const convField = { assigned: 'assigned', response: 'answered', ended: 'ended' } as const;

  for (const { _id: g, n } of events?.convs ?? []) {
    const field = convField[g.k as keyof typeof convField];
    if (field && g.o) acc(g.o).figures[field] += n;
  }
  for (const { _id: kind, n } of events?.teamConvs ?? []) {
    const field = convField[kind as keyof typeof convField];
    if (field) team.figures[field] += n;
  }
  for (const { _id: g, n } of waits) {
    if (!g.r) continue;
    for (const a of g.o ? [acc(g.o), team] : [team]) {
      if (g.r === 'first') a.figures.firstResponses += n;
      else a.figures.nextResponses += n;
      if (typeof g.w === 'number') {
        const counts = g.r === 'first' ? a.first : a.next;
        counts.set(g.w, (counts.get(g.w) ?? 0) + n);
      }
      if (g.t === true || g.t === false) {
        a.figures.targeted += n;
        if (g.t) a.figures.withinTarget += n;
      }
    }
  }
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
