/** The availability report: per room, one bar per day across 24 hours, its online share, and a popover per stretch. */
import { type SyntheticEvent, useMemo, useState } from 'react';
import type { ChatEndpointView } from '../../../../server/shared';
import { type AvailabilityDay, type AvailabilityEntry, PRESENCE_CAUSE_LABELS } from '../../../../server/shared/reports';
import { fetchAvailability } from '../../api/reports';
import { RoomHead, useReport } from './parts';
import { formatClock, HOUR_LABELS, popoverOnTop, type RangeChoice, rangeOf, stretchGeometry } from './reportRules';

export function AvailabilityReportView({ rooms, range, tz }: { rooms: ChatEndpointView[]; range: RangeChoice; tz: string }) {
  return (
    <div className="reports__rooms">
      {rooms.map((room) => (
        <RoomAvailability key={room.Id} room={room} range={range} tz={tz} />
      ))}
    </div>
  );
}

type Hovered = { entry: AvailabilityEntry; left: number; top: boolean };

function RoomAvailability({ room, range, tz }: { room: ChatEndpointView; range: RangeChoice; tz: string }) {
  const query = useMemo(() => rangeOf(range, tz, new Date()), [range, tz]);
  const { data: report, loading } = useReport(() => fetchAvailability(room.Id, query), [room.Id, query]);

  return (
    <section className="card reports__room" aria-label={`Availability of ${room.RoomName}`}>
      <RoomHead room={room} />
      {loading && !report ? (
        <div className="reports__loading" role="status">
          <span className="spinner" aria-hidden="true" />
        </div>
      ) : (
        <div className="availability" aria-busy={loading || undefined}>
          <div className="availability__scale" aria-hidden="true">
            <span className="availability__label" />
            <span className="availability__hours">
              {HOUR_LABELS.map((h) => (
                <span key={h} style={{ left: `${(h / 24) * 100}%` }}>
                  {h}
                </span>
              ))}
            </span>
            <span className="availability__pct" />
          </div>
          {(report?.stats ?? []).map((day) => (
            <DayBar key={day.date} day={day} tz={tz} />
          ))}
        </div>
      )}
    </section>
  );
}

function DayBar({ day, tz }: { day: AvailabilityDay; tz: string }) {
  const [hovered, setHovered] = useState<Hovered | null>(null);
  const show = (entry: AvailabilityEntry, left: number) => (event: SyntheticEvent<HTMLElement>) => {
    const bar = event.currentTarget.parentElement?.getBoundingClientRect();
    setHovered({ entry, left, top: popoverOnTop(bar?.bottom ?? 0, window.innerHeight) });
  };
  return (
    <div className="availability__day">
      <span className="availability__label">{day.label}</span>
      <span className="availability__bar">
        {day.entries.map((entry) => {
          const { left, width } = stretchGeometry(day, entry);
          return (
            // A button so keyboard and screen-reader users reach each stretch and its details, as a pointer does.
            <button
              key={entry.start}
              type="button"
              className={`availability__stretch availability__stretch--${entry.state.toLowerCase()}`}
              style={{ left: `${left}%`, width: `${width}%` }}
              aria-label={`${entry.state} ${formatClock(entry.start, tz)} to ${formatClock(entry.end, tz)}`}
              onMouseEnter={show(entry, left + width / 2)}
              onMouseLeave={() => setHovered(null)}
              onFocus={show(entry, left + width / 2)}
              onBlur={() => setHovered(null)}
            />
          );
        })}
        {hovered && (
          <span
            className={`availability__popover availability__popover--${hovered.top ? 'top' : 'bottom'}`}
            style={{ left: `${hovered.left}%` }}
            role="tooltip"
          >
            <strong>{hovered.entry.state}</strong> (was {hovered.entry.prevState})
            <br />
            {formatClock(hovered.entry.start, tz)} – {formatClock(hovered.entry.end, tz)}
            {hovered.entry.cause && (
              <>
                <br />
                {PRESENCE_CAUSE_LABELS[hovered.entry.cause]}
              </>
            )}
          </span>
        )}
      </span>
      <span className="availability__pct">{day.onlinePercent}%</span>
    </div>
  );
}
