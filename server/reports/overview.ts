/**
 * The overview report of one widget over a range (docs/reports.md says how each figure is computed): one row
 * per agent who gave the first operator reply, a 'Missed chats' row (agentName '') for chats nobody answered,
 * the room's totals, and chats per day for the chart. Reads only the conversation fields the relay records as
 * things happen (never the messages), through the {ceId, discarded, startedAt} index, and lets the database
 * add them up: one aggregation answers with a row per agent and one per day, whatever the number of chats.
 */
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { AgentStats, OverviewFigures, OverviewReport } from '../shared/reports';
import type { ReportRange } from './range';

type Acc = {
  chats: number;
  trigger: number;
  up: number;
  down: number;
  late: number;
  replied: number;
  replyMs: number;
  ended: number;
  durationMs: number;
  msgs: number;
};
const emptyAcc = (): Acc => ({ chats: 0, trigger: 0, up: 0, down: 0, late: 0, replied: 0, replyMs: 0, ended: 0, durationMs: 0, msgs: 0 });

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

function figures(acc: Acc, days: number, offline: number): OverviewFigures {
  const rated = acc.up + acc.down;
  return {
    totalChats: acc.chats,
    avgChatsPerDay: days ? round(acc.chats / days, 2) : 0,
    chatsFromTrigger: acc.trigger,
    upRatingPercent: rated ? round((acc.up / rated) * 100, 1) : 0,
    upRatingCount: acc.up,
    lateReply: acc.late,
    avgTimeToFirstReply: acc.replied ? Math.round(acc.replyMs / acc.replied / 1000) : 0,
    avgChatDuration: acc.ended ? Math.round(acc.durationMs / acc.ended / 1000) : 0,
    avgMsgsPerChat: acc.chats ? round(acc.msgs / acc.chats, 1) : 0,
    totalOfflineMsgs: offline,
  };
}

/** The conversations a report counts: the widget's, not discarded, started inside the range. */
export function reportedChats(ce: Pick<ChatEndpointDocument, '_id'>, range: Pick<ReportRange, 'start' | 'end'>) {
  return { ceId: ce._id, discarded: false, startedAt: { $gte: range.start, $lt: range.end } };
}

/** Per agent, the sums the figures are made of (what the database hands back: a dozen rows, whatever the range). */
type AgentSums = Acc & { _id: string };

const answered = { $gt: ['$firstResponseAt', null] };
const ended = { $gt: ['$endedAt', null] };
const firstReplyMs = { $subtract: ['$firstResponseAt', '$startedAt'] };
const count = (condition: unknown) => ({ $sum: { $cond: [condition, 1, 0] } });

/**
 * One row per agent (the first operator reply's author; '' for chats nobody answered) with the sums of every
 * figure, grouped by the database next to the data: a year of chats never travels to Parley.
 */
function agentSums(lateMs: number) {
  return {
    $group: {
      _id: { $cond: [answered, { $ifNull: ['$agentName', ''] }, ''] },
      chats: { $sum: 1 },
      trigger: count({ $gt: ['$triggerUid', ''] }),
      up: count({ $eq: ['$rating', 'up'] }),
      down: count({ $eq: ['$rating', 'down'] }),
      late: count({ $and: [answered, { $gt: [firstReplyMs, lateMs] }] }),
      replied: count(answered),
      replyMs: { $sum: { $cond: [answered, firstReplyMs, 0] } },
      ended: count(ended),
      durationMs: { $sum: { $cond: [ended, { $subtract: ['$endedAt', '$startedAt'] }, 0] } },
      msgs: { $sum: { $add: [{ $ifNull: ['$visitorMsgs', 0] }, { $ifNull: ['$operatorMsgs', 0] }] } },
    },
  };
}

/** Chats per day of the range: the days' first instants (in the report's zone, from luxon) are the bucket boundaries. */
function chatsByDay(range: ReportRange) {
  const boundaries = [...range.days.map((d) => d.start), range.end];
  return { $bucket: { groupBy: '$startedAt', boundaries, default: 'outside', output: { chats: { $sum: 1 } } } };
}

export async function overviewReport(models: Models, ce: ChatEndpointDocument, range: ReportRange): Promise<OverviewReport> {
  const [[facets], offline] = await Promise.all([
    models.Conversation.collection
      .aggregate<{ agents: AgentSums[]; days: { _id: Date | string; chats: number }[] }>([
        { $match: reportedChats(ce, range) },
        { $facet: { agents: [agentSums(ce.noAnswerMessageAfterSecs * 1000)], days: [chatsByDay(range)] } },
      ])
      .toArray(),
    models.OfflineMessage.countDocuments({ ceId: ce._id, createdAt: { $gte: range.start, $lt: range.end } }),
  ]);
  const { agents: sums, days: buckets } = facets ?? { agents: [], days: [] };
  const total = emptyAcc();
  const byAgent = new Map<string, Acc>();
  for (const { _id: agent, ...acc } of sums) {
    byAgent.set(agent, acc);
    for (const key of Object.keys(total) as (keyof Acc)[]) total[key] += acc[key];
  }
  const perDay = new Map(buckets.map((b) => [b._id instanceof Date ? b._id.getTime() : b._id, b.chats]));
  const days = range.days.length;
  const stats: AgentStats[] = [...byAgent.entries()]
    .map(([agentName, acc]) => ({ agentName, ...figures(acc, days, 0) }))
    // Agents by chats, most first; the missed chats row last.
    .sort((a, b) =>
      (a.agentName === '') !== (b.agentName === '')
        ? a.agentName === ''
          ? 1
          : -1
        : b.totalChats - a.totalChats || a.agentName.localeCompare(b.agentName),
    );
  return {
    totalStats: figures(total, days, offline),
    stats,
    days,
    chatsPerDay: range.days.map((d) => ({ day: d.date, chats: perDay.get(d.start.getTime()) ?? 0 })),
  };
}
