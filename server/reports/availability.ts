/**
 * The availability report: for each day of the range (in the report's zone), the stretches the widget was
 * online or offline, from the recorded presence transitions, and the share of the day it was online.
 * Days before the widget existed are left out and nothing is reported before its creation or after `now`
 * (there is nothing to know there); from its creation to the first recorded transition it counts as offline.
 */
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { AvailabilityDay, AvailabilityReport, PresenceCause, PresenceState } from '../shared/reports';
import type { ReportRange } from './range';

type Segment = { online: boolean; prevOnline: boolean; cause: PresenceCause | ''; from: number; to: number };

const state = (online: boolean): PresenceState => (online ? 'Online' : 'Offline');

export async function availabilityReport(
  models: Models,
  ce: Pick<ChatEndpointDocument, '_id' | 'createdAt'>,
  range: ReportRange,
  now: Date,
): Promise<AvailabilityReport> {
  const until = Math.min(range.end.getTime(), now.getTime());
  const created = ce.createdAt?.getTime() ?? 0;
  const since = Math.max(range.start.getTime(), created);
  const [before, changes] = await Promise.all([
    models.PresenceChange.findOne({ ceId: ce._id, at: { $lt: range.start } })
      .sort({ at: -1 })
      .lean(),
    models.PresenceChange.find({ ceId: ce._id, at: { $gte: range.start, $lt: range.end } })
      .sort({ at: 1 })
      .lean(),
  ]);
  // The stretches of the whole range, each from a transition (or the range start) to the next.
  const segments: Segment[] = [];
  let current: Segment = {
    online: before?.online ?? false,
    prevOnline: before ? !before.online : false,
    cause: before?.cause ?? '',
    from: since,
    to: until,
  };
  for (const change of changes) {
    const at = Math.max(change.at.getTime(), since);
    if (at >= until) break;
    if (change.online === current.online) continue;
    if (at > current.from) segments.push({ ...current, to: at });
    current = { online: change.online, prevOnline: current.online, cause: change.cause, from: at, to: until };
  }
  if (current.from < until) segments.push(current);

  // A day that ended before the widget was created has nothing to show.
  const stats: AvailabilityDay[] = range.days
    .filter((day) => day.dayEnd.getTime() > created)
    .map((day) => {
      const from = day.start.getTime();
      const to = Math.min(day.end.getTime(), until);
      const entries = segments
        .filter((s) => s.from < to && s.to > from)
        .map((s) => ({
          state: state(s.online),
          prevState: state(s.prevOnline),
          start: new Date(Math.max(s.from, from)).toISOString(),
          end: new Date(Math.min(s.to, to)).toISOString(),
          cause: s.cause,
        }));
      const onlineMs = segments
        .filter((s) => s.online)
        .reduce((sum, s) => sum + Math.max(0, Math.min(s.to, to) - Math.max(s.from, from)), 0);
      const length = day.dayEnd.getTime() - day.dayStart.getTime();
      return {
        label: day.label,
        date: day.date,
        start: day.dayStart.toISOString(),
        end: day.dayEnd.toISOString(),
        onlinePercent: Math.round((onlineMs / length) * 1000) / 10,
        entries,
      };
    });
  return { stats, createdAt: new Date(created).toISOString() };
}
