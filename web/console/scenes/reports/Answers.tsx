import type { ChatEndpointView } from '../../../../server/shared';
import { type AnswersReport, SUGGESTION_KIND_LABELS } from '../../../../server/shared/reports';
import { fetchAnswers } from '../../api/reports';
import { RoomReports, Stat } from './parts';
import { formatTime, type RangeChoice } from './reportRules';

export function AnswersReportView({ rooms, range, tz }: { rooms: ChatEndpointView[]; range: RangeChoice; tz: string }) {
  const body = (report: AnswersReport, busy: boolean) => <AnswersBody report={report} tz={tz} busy={busy} />;
  return <RoomReports rooms={rooms} range={range} tz={tz} kind="answers" label="Answers" load={fetchAnswers} body={body} />;
}

/** "3 of 10 (30%)" style share, or the count alone when there is nothing to share. */
const share = (part: number, whole: number) => (whole ? `${part} (${Math.round((part / whole) * 100)}%)` : String(part));

function AnswersBody({ report, tz, busy }: { report: AnswersReport; tz: string; busy: boolean }) {
  const t = report.totals;
  const nothing = Object.values(t).every((n) => n === 0);
  if (nothing) {
    return (
      <p className="reports__empty" aria-busy={busy || undefined}>
        No help-center activity in this range yet: searches, article views and answers appear here once visitors use the help center.
      </p>
    );
  }
  return (
    <div aria-busy={busy || undefined}>
      <dl className="reports__stats">
        <Stat label="Searches" value={t.searches} />
        <Stat label="Found nothing" value={share(t.searchesWithoutAnswer, t.searches)} />
        <Stat label="Article views" value={t.articleViews} />
        <Stat label="Answered: Yes" value={share(t.helpfulYes, t.helpfulYes + t.helpfulNo)} />
        <Stat label="Answered: No" value={share(t.helpfulNo, t.helpfulYes + t.helpfulNo)} />
        <Stat label="Resolved by an article" value={t.resolved} />
        <Stat label="Sent from Slack" value={t.suggestionsSent} />
      </dl>
      {report.suggestions.length > 0 && (
        <p className="reports__answers-sent">
          Sent from Slack:{' '}
          {report.suggestions.map((s, i) => (
            <span key={s.kind}>
              {i > 0 && ', '}
              {SUGGESTION_KIND_LABELS[s.kind] ?? s.kind} {s.sent}
            </span>
          ))}
        </p>
      )}
      <h3 className="reports__subhead" id="answers-unanswered">
        Questions that found nothing
      </h3>
      {report.unanswered.length === 0 ? (
        <p className="muted">Every search found an article.</p>
      ) : (
        <>
          <p className="muted reports__answers-hint">
            Most asked first: an article answering these would help the most visitors.
            {report.unansweredTotal > report.unanswered.length &&
              ` Showing ${report.unanswered.length} of ${report.unansweredTotal}; the CSV has them all.`}
          </p>
          <div className="reports__table-wrap">
            <table className="reports__table reports__answers reports__questions" aria-labelledby="answers-unanswered">
              <thead>
                <tr>
                  <th scope="col">Question</th>
                  <th scope="col">Language</th>
                  <th scope="col">Asked</th>
                  <th scope="col">Last asked</th>
                </tr>
              </thead>
              <tbody>
                {report.unanswered.map((q) => (
                  <tr key={`${q.language}:${q.query}`}>
                    <th scope="row">{q.query}</th>
                    <td data-label="Language">{q.language}</td>
                    <td data-label="Asked">{q.count}</td>
                    <td data-label="Last asked">{formatTime(q.lastAskedAt, tz)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <h3 className="reports__subhead" id="answers-articles">
        Articles
      </h3>
      {report.articles.length === 0 ? (
        <p className="muted">No article was viewed, answered or sent in this range.</p>
      ) : (
        <div className="reports__table-wrap">
          <table className="reports__table reports__answers reports__articles" aria-labelledby="answers-articles">
            <thead>
              <tr>
                <th scope="col">Article</th>
                <th scope="col">Views</th>
                <th scope="col">Yes</th>
                <th scope="col">No</th>
                <th scope="col">Resolved</th>
                <th scope="col">Sent from Slack</th>
              </tr>
            </thead>
            <tbody>
              {report.articles.map((a) => (
                <tr key={a.id}>
                  <th scope="row">
                    {a.title || <span className="muted">Deleted article</span>}
                    {a.language && <span className="reports__lang"> ({a.language})</span>}
                  </th>
                  <td data-label="Views">{a.views}</td>
                  <td data-label="Yes">{a.helpfulYes}</td>
                  <td data-label="No">{a.helpfulNo}</td>
                  <td data-label="Resolved">{a.resolved}</td>
                  <td data-label="Sent from Slack">{a.sent}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
