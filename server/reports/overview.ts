/**
 * The overview report of one widget over a range (docs/reports.md says how each figure is computed): one row
 * per agent who gave the first operator reply, a 'Missed chats' row (agentName '') for chats nobody answered,
 * the room's totals, and chats per day for the chart. Reads only the conversation fields the relay records as
 * things happen (never the messages), through the {ceId, discarded, startedAt} index.
 */
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { Conversation } from '../models/Conversation';
import type { AgentStats, OverviewFigures, OverviewReport } from '../shared/reports';
import { dayIndex, type ReportRange } from './range';

type ChatFacts = Pick<
  Conversation,
  'startedAt' | 'endedAt' | 'firstResponseAt' | 'agentName' | 'rating' | 'triggerUid' | 'visitorMsgs' | 'operatorMsgs'
>;

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

export async function overviewReport(models: Models, ce: ChatEndpointDocument, range: ReportRange): Promise<OverviewReport> {
  const lateMs = ce.noAnswerMessageAfterSecs * 1000;
  const [chats, offline] = await Promise.all([
    // The driver, not mongoose: only the fields below travel, and nothing is hydrated (a year can be 30,000 chats).
    models.Conversation.collection
      .find<ChatFacts>(reportedChats(ce, range), {
        projection: {
          _id: 0,
          startedAt: 1,
          endedAt: 1,
          firstResponseAt: 1,
          agentName: 1,
          rating: 1,
          triggerUid: 1,
          visitorMsgs: 1,
          operatorMsgs: 1,
        },
        batchSize: 10_000,
      })
      .toArray(),
    models.OfflineMessage.countDocuments({ ceId: ce._id, createdAt: { $gte: range.start, $lt: range.end } }),
  ]);
  const total = emptyAcc();
  const byAgent = new Map<string, Acc>();
  const perDay = range.days.map(() => 0);
  for (const c of chats) {
    const agent = c.firstResponseAt ? c.agentName : '';
    let acc = byAgent.get(agent);
    if (!acc) byAgent.set(agent, (acc = emptyAcc()));
    const started = c.startedAt.getTime();
    const day = dayIndex(range.days, started);
    if (day >= 0) perDay[day] += 1;
    for (const a of [acc, total]) {
      a.chats += 1;
      if (c.triggerUid) a.trigger += 1;
      if (c.rating === 'up') a.up += 1;
      else if (c.rating === 'down') a.down += 1;
      if (c.firstResponseAt) {
        const wait = c.firstResponseAt.getTime() - started;
        a.replied += 1;
        a.replyMs += wait;
        if (wait > lateMs) a.late += 1;
      }
      if (c.endedAt) {
        a.ended += 1;
        a.durationMs += c.endedAt.getTime() - started;
      }
      a.msgs += (c.visitorMsgs ?? 0) + (c.operatorMsgs ?? 0);
    }
  }
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
    chatsPerDay: range.days.map((d, i) => ({ day: d.date, chats: perDay[i] })),
  };
}
