/** The availability report: per room, one bar per day across 24 hours, its online share, and a popover per stretch. */
import { type KeyboardEvent, type MouseEvent, useCallback, useId, useMemo, useRef, useState } from 'react';
import type { ChatEndpointView } from '../../../../server/shared';
import { type AvailabilityDay, type AvailabilityEntry, PRESENCE_CAUSE_LABELS, todayIn } from '../../../../server/shared/reports';
import { fetchAvailability } from '../../api/reports';
import { EachRoom, ReportLoading, RoomHead, useReport } from './parts';
import { formatStretch, HOUR_LABELS, popoverOnTop, type RangeChoice, rangeOf, stretchGeometry } from './reportRules';

export function AvailabilityReportView({ rooms, range, tz }: { rooms: ChatEndpointView[]; range: RangeChoice; tz: string }) {
  return <EachRoom rooms={rooms} card={(room) => <RoomAvailability room={room} range={range} tz={tz} />} />;
}

type Hovered = { entry: AvailabilityEntry; index: number; left: number; top: boolean };

function RoomAvailability({ room, range, tz }: { room: ChatEndpointView; range: RangeChoice; tz: string }) {
  const query = useMemo(() => rangeOf(range, tz, new Date()), [range, tz]);
  const { data: report, loading } = useReport(useCallback(() => fetchAvailability(room.Id, query), [room.Id, query]));

  return (
    <section className="card reports__room" aria-label={`Availability of ${room.RoomName}`}>
      <RoomHead room={room} />
      {loading && !report ? (
        <ReportLoading />
      ) : (
        <div className="availability" aria-busy={loading || undefined}>
          <Legend />
          {report && query.startDate.slice(0, 10) <= localDate(report.createdAt, tz) && (
            <p className="availability__since reports__muted">
              {room.RoomName ? `#${room.RoomName}` : 'This widget'} was added on {formatDay(report.createdAt, tz)}: nothing is recorded
              before that.
            </p>
          )}
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

/** What the bar colours mean. */
function Legend() {
  return (
    <ul className="availability__legend" aria-label="Legend">
      <li>
        <span className="availability__swatch availability__stretch--online" aria-hidden="true" />
        Online
      </li>
      <li>
        <span className="availability__swatch availability__stretch--offline" aria-hidden="true" />
        Offline
      </li>
      <li>
        <span className="availability__swatch availability__swatch--none" aria-hidden="true" />
        Not recorded (before the widget was added, or still to come)
      </li>
    </ul>
  );
}

/** The yyyy-mm-dd date of an instant in a zone. */
function localDate(iso: string, tz: string): string {
  return todayIn(tz, new Date(iso));
}

/** "Mar 5, 2026" in a zone. */
function formatDay(iso: string, tz: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: tz, dateStyle: 'medium' }).format(new Date(iso));
}

function DayBar({ day, tz }: { day: AvailabilityDay; tz: string }) {
  const [hovered, setHovered] = useState<Hovered | null>(null);
  const popoverId = useId();
  const bar = useRef<HTMLButtonElement>(null);
  const showAt = (index: number) => {
    const entry = day.entries[index];
    if (!entry) return;
    const { left, width } = stretchGeometry(day, entry);
    const box = bar.current?.getBoundingClientRect();
    setHovered({ entry, index, left: left + width / 2, top: popoverOnTop(box?.bottom ?? 0, window.innerHeight) });
  };
  const summary = `${day.label}: ${day.entries
    .map((entry) => `${entry.state} ${formatStretch(entry.start, entry.end, tz, ' to ')}`)
    .join(', ')}`;
  // The day is one keyboard stop (a stretch may be a fraction of a pixel wide): focus shows its first stretch's
  // details, the arrow keys walk through the others; a pointer shows the stretch under it.
  const onKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    showAt(Math.min(day.entries.length - 1, Math.max(0, (hovered?.index ?? -1) + step)));
  };
  // The stretch under the pointer: found from where it is along the bar, so even the narrowest one shows.
  const onPointer = (event: MouseEvent<HTMLButtonElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * 100;
    const index = day.entries.findIndex((entry) => {
      const { left, width } = stretchGeometry(day, entry);
      return at >= left && at <= left + width;
    });
    if (index >= 0 && index !== hovered?.index) showAt(index);
  };
  return (
    <div className="availability__day">
      <span className="availability__label">{day.label}</span>
      <span className="availability__track">
        <button
          ref={bar}
          type="button"
          className="availability__bar"
          aria-label={summary}
          aria-describedby={hovered ? popoverId : undefined}
          onFocus={() => showAt(0)}
          onBlur={() => setHovered(null)}
          onKeyDown={onKey}
          onMouseMove={onPointer}
          onMouseLeave={() => setHovered(null)}
        >
          {day.entries.map((entry) => {
            const { left, width } = stretchGeometry(day, entry);
            return (
              <span
                key={entry.start}
                className={`availability__stretch availability__stretch--${entry.state.toLowerCase()}`}
                style={{ left: `${left}%`, width: `${width}%` }}
              />
            );
          })}
        </button>
        {hovered && (
          <span
            id={popoverId}
            className={`availability__popover availability__popover--${hovered.top ? 'top' : 'bottom'}`}
            style={{ left: `${hovered.left}%` }}
            role="tooltip"
          >
            <strong>{hovered.entry.state}</strong> (was {hovered.entry.prevState})
            <br />
            {formatStretch(hovered.entry.start, hovered.entry.end, tz)}
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
