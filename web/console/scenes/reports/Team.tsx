/**
 * The Team report: per room what the shared inbox recorded in the range (docs/reports.md, Team): the whole team's
 * figures, a row per operator (named and pictured as in Slack), and the tags with their trend; the downloads.
 */
import { lazy, Suspense } from 'react';
import type { ChatEndpointView } from '../../../../server/shared';
import type { OperatorRow, TeamFigures, TeamReport } from '../../../../server/shared/reports';
import { fetchTeam } from '../../api/reports';
import { RoomReports, Stat } from './parts';
import { formatDuration, type RangeChoice } from './reportRules';

// uPlot loads only when a chart is on screen (the Overview's chunk).
const TagsChart = lazy(() => import('./TagsChart').then((m) => ({ default: m.TagsChart })));

export function TeamReportView({ rooms, range, tz }: { rooms: ChatEndpointView[]; range: RangeChoice; tz: string }) {
  const body = (report: TeamReport, busy: boolean) => <TeamBody report={report} busy={busy} />;
  return <RoomReports rooms={rooms} range={range} tz={tz} kind="team" label="Team" load={fetchTeam} body={body} />;
}

/** A median wait, or what stands for none. */
const wait = (secs: number | null) => (secs === null ? 'No answers' : formatDuration(secs));
/** "75% (3 of 4)", or what stands for no target measured. */
const withinTarget = (f: TeamFigures) =>
  f.withinTargetPercent === null ? 'No target' : `${f.withinTargetPercent}% (${f.withinTarget} of ${f.targeted})`;
const ratings = (f: TeamFigures) => `${f.ratedUp} up, ${f.ratedDown} down`;

function TeamBody({ report, busy }: { report: TeamReport; busy: boolean }) {
  const t = report.team;
  if (report.operators.length === 0 && report.tags.length === 0) {
    // Medians and shares of nothing are not 0s: there is nothing to measure yet.
    return (
      <p className="reports__empty" aria-busy={busy || undefined}>
        No team activity in this range yet: figures appear once operators are assigned conversations, answer them or tag them in Slack.
      </p>
    );
  }
  return (
    <div aria-busy={busy || undefined}>
      <dl className="reports__stats">
        <Stat label="Assigned" value={t.assigned} />
        <Stat label="Answered" value={t.answered} />
        <Stat label="Ended" value={t.ended} />
        <Stat label="Median first response" value={wait(t.medianFirstResponseSecs)} />
        <Stat label="Median next response" value={wait(t.medianNextResponseSecs)} />
        <Stat label="Within target" value={withinTarget(t)} />
        <Stat label="Ratings" value={ratings(t)} />
      </dl>
      <p className="muted reports__answers-hint">Waits count business time only: the widget's operating hours.</p>
      <h3 className="reports__subhead">Operators</h3>
      {report.operators.length === 0 ? (
        <p className="muted">Nobody was assigned a conversation or answered one in this range.</p>
      ) : (
        <OperatorTable operators={report.operators} />
      )}
      <h3 className="reports__subhead">Tags</h3>
      {report.tags.length === 0 ? (
        <p className="muted">No conversation started in this range carries a tag.</p>
      ) : (
        <>
          <p className="muted reports__answers-hint">
            {report.tagged} of {report.conversations} conversations started in this range carry a tag; per {report.step}:
          </p>
          <Suspense fallback={<div className="reports__chart reports__chart--loading" />}>
            <TagsChart buckets={report.buckets} step={report.step} tags={report.tags} />
          </Suspense>
          <div className="reports__table-wrap">
            <table className="reports__table reports__answers reports__tags" aria-label="Tags">
              <thead>
                <tr>
                  <th scope="col">Tag</th>
                  <th scope="col">Conversations</th>
                  <th scope="col">Share</th>
                  <th scope="col">Busiest {report.step}</th>
                </tr>
              </thead>
              <tbody>
                {report.tags.map((tag) => {
                  const most = Math.max(...tag.trend);
                  const busiest = report.buckets[tag.trend.indexOf(most)];
                  return (
                    <tr key={tag.tag}>
                      <th scope="row">{tag.tag}</th>
                      <td data-label="Conversations">{tag.conversations}</td>
                      <td data-label="Share">
                        {report.conversations ? `${Math.round((tag.conversations / report.conversations) * 100)}%` : '—'}
                      </td>
                      <td data-label={`Busiest ${report.step}`}>{busiest ? `${busiest.label} (${most})` : '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}

function OperatorTable({ operators }: { operators: OperatorRow[] }) {
  return (
    <div className="reports__table-wrap">
      <table className="reports__table reports__answers reports__team" aria-label="Operators">
        <thead>
          <tr>
            <th scope="col">Operator</th>
            <th scope="col">Assigned</th>
            <th scope="col">Answered</th>
            <th scope="col">Ended</th>
            <th scope="col">Median first response</th>
            <th scope="col">Median next response</th>
            <th scope="col">Within target</th>
            <th scope="col">Ratings</th>
          </tr>
        </thead>
        <tbody>
          {operators.map((o) => (
            <tr key={o.id}>
              <th scope="row">
                <span className="reports__operator">
                  {o.avatarUrl ? (
                    <img className="reports__avatar" src={o.avatarUrl} alt="" width={24} height={24} />
                  ) : (
                    // The initial drawn by CSS, so the row's text is the name alone.
                    <span
                      className="reports__avatar reports__avatar--initial"
                      data-initial={o.name.slice(0, 1).toUpperCase()}
                      aria-hidden="true"
                    />
                  )}
                  {o.name}
                </span>
              </th>
              <td data-label="Assigned">{o.assigned}</td>
              <td data-label="Answered">{o.answered}</td>
              <td data-label="Ended">{o.ended}</td>
              <td data-label="Median first response">{wait(o.medianFirstResponseSecs)}</td>
              <td data-label="Median next response">{wait(o.medianNextResponseSecs)}</td>
              <td data-label="Within target">{withinTarget(o)}</td>
              <td data-label="Ratings">{ratings(o)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
