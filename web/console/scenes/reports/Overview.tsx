/** The overview report: per room, stat cards, the chats-per-day chart, the per-agent table and the downloads. */
import { lazy, Suspense, useCallback, useMemo } from 'react';
import type { ChatEndpointView } from '../../../../server/shared';
import type { AgentStats } from '../../../../server/shared/reports';
import { downloadReport, fetchOverview } from '../../api/reports';
import { EachRoom, ReportLoading, RoomHead, Stat, useReport } from './parts';
import { formatDuration, type RangeChoice, rangeOf } from './reportRules';

// uPlot (~20 KB gzipped) loads only when a chart is on screen.
const ChatsChart = lazy(() => import('./ChatsChart').then((m) => ({ default: m.ChatsChart })));

export function OverviewReportView({ rooms, range, tz }: { rooms: ChatEndpointView[]; range: RangeChoice; tz: string }) {
  return <EachRoom rooms={rooms} card={(room) => <RoomOverview room={room} range={range} tz={tz} />} />;
}

function RoomOverview({ room, range, tz }: { room: ChatEndpointView; range: RangeChoice; tz: string }) {
  const query = useMemo(() => rangeOf(range, tz, new Date()), [range, tz]);
  const { data: report, loading } = useReport(useCallback(() => fetchOverview(room.Id, query), [room.Id, query]));

  const t = report?.totalStats;
  return (
    <section className="card reports__room" aria-label={`Overview of ${room.RoomName}`}>
      <RoomHead room={room} download={(format) => downloadReport(room, 'overview', format, query)} />
      {loading && !report ? (
        <ReportLoading />
      ) : t && t.totalChats === 0 && t.totalOfflineMsgs === 0 ? (
        // Averages and ratings of no chats are not 0s and 0%: there is nothing to measure yet.
        <p className="reports__empty" aria-busy={loading || undefined}>
          No chats in this range yet: the figures appear once visitors start chatting.
        </p>
      ) : t && report ? (
        <>
          <dl className="reports__stats" aria-busy={loading || undefined}>
            <Stat label="Total Chats" value={t.totalChats} />
            <Stat label="Avg Chats/Day" value={t.avgChatsPerDay} />
            <Stat label="Trigger Chats" value={t.chatsFromTrigger} />
            <Stat label="Up Ratings" value={`${t.upRatingPercent}% (${t.upRatingCount})`} />
            <Stat label="Late Replies" value={t.lateReply} />
            <Stat label="Avg First Reply" value={formatDuration(t.avgTimeToFirstReply)} />
            <Stat label="Avg Chat Duration" value={formatDuration(t.avgChatDuration)} />
            <Stat label="Avg Msgs/Chat" value={t.avgMsgsPerChat} />
            <Stat label="Offline Messages" value={t.totalOfflineMsgs} />
          </dl>
          <Suspense fallback={<div className="reports__chart reports__chart--loading" />}>
            <ChatsChart days={report.chatsPerDay} />
          </Suspense>
          {report.stats.length > 0 && <AgentTable stats={report.stats} />}
        </>
      ) : (
        <p className="reports__empty">No figures to show.</p>
      )}
    </section>
  );
}

function AgentTable({ stats }: { stats: AgentStats[] }) {
  return (
    <div className="reports__table-wrap">
      <table className="reports__table reports__agents">
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Total Chats</th>
            <th scope="col">Avg/Day</th>
            <th scope="col">Trigger Chats</th>
            <th scope="col">Up Rating</th>
            <th scope="col">Late Replies</th>
            <th scope="col">Avg First Reply</th>
            <th scope="col">Avg Duration</th>
            <th scope="col">Avg Msgs</th>
          </tr>
        </thead>
        <tbody>
          {stats.map((s) =>
            s.agentName === '' ? (
              <tr key="missed" className="reports__missed">
                <th scope="row">Missed chats</th>
                <td data-label="Total Chats">{s.totalChats}</td>
                <td data-label="Avg Missed/Day" title="Avg Missed/Day">
                  {s.avgChatsPerDay}
                </td>
                <td data-label="Trigger Chats">{s.chatsFromTrigger}</td>
                <td colSpan={5} className="reports__filler" />
              </tr>
            ) : (
              <tr key={s.agentName}>
                <th scope="row">{s.agentName}</th>
                <td data-label="Total Chats">{s.totalChats}</td>
                <td data-label="Avg/Day">{s.avgChatsPerDay}</td>
                <td data-label="Trigger Chats">{s.chatsFromTrigger}</td>
                <td data-label="Up Rating">
                  {s.upRatingPercent}% ({s.upRatingCount})
                </td>
                <td data-label="Late Replies">{s.lateReply}</td>
                <td data-label="Avg First Reply">{formatDuration(s.avgTimeToFirstReply)}</td>
                <td data-label="Avg Duration">{formatDuration(s.avgChatDuration)}</td>
                <td data-label="Avg Msgs">{s.avgMsgsPerChat}</td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}
