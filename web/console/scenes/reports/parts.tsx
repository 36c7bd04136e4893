/** Pieces every report shares: a room's heading with the download buttons, loading a report, a room's report card. */
import { Fragment, type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import type { ChatEndpointView } from '../../../../server/shared';
import { downloadReport } from '../../api/reports';
import { Button } from '../../components/ui';
import { type RangeChoice, rangeOf } from './reportRules';

/** A report's rooms, one card each, as `card` draws a room's. */
export function EachRoom({ rooms, card }: { rooms: ChatEndpointView[]; card: (room: ChatEndpointView) => ReactNode }) {
  return (
    <div className="reports__rooms">
      {rooms.map((room) => (
        <Fragment key={room.Id}>{card(room)}</Fragment>
      ))}
    </div>
  );
}

/** One figure of a report's stat cards (inside a `<dl className="reports__stats">`). */
export function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="reports__stat">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** What a room's card shows while its first answer loads. */
export function ReportLoading() {
  return (
    <div className="reports__loading" role="status">
      <span className="spinner" aria-hidden="true" />
    </div>
  );
}

/** The room's name, and Download CSV / Download JSON when the report can be downloaded. */
export function RoomHead({ room, download }: { room: ChatEndpointView; download?: (format: 'csv' | 'json') => Promise<void> }) {
  const [downloading, setDownloading] = useState<'csv' | 'json' | null>(null);
  const start = (format: 'csv' | 'json') => {
    if (!download) return;
    setDownloading(format);
    download(format)
      // Failures are logged only (spec section 7: an unknown file extension is only logged).
      .catch((err: unknown) => console.error('download failed', err))
      .finally(() => setDownloading(null));
  };
  return (
    <div className="reports__room-head">
      <h2>#{room.RoomName}</h2>
      {download && (
        <div className="reports__downloads">
          <Button variant="secondary" busy={downloading === 'csv'} onClick={() => start('csv')}>
            Download CSV
          </Button>
          <Button variant="secondary" busy={downloading === 'json'} onClick={() => start('json')}>
            Download JSON
          </Button>
        </div>
      )}
    </div>
  );
}

/**
 * Loads a report whenever `load` changes (give it with useCallback, whose dependencies say what it loads), keeping
 * the previous answer on screen meanwhile. Failed report loads are only logged and the spinner stops (spec section 2).
 */
export function useReport<T>(load: () => Promise<T>): { data: T | null; loading: boolean } {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load()
      .then((answer) => live && setData(answer))
      .catch((err: unknown) => console.error('report failed to load', err))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [load]);
  return { data, loading };
}

/** What a range report (Answers, Team) gives its room cards: its kind, label, loader and body. */
type RangeReport<T> = {
  kind: 'answers' | 'team';
  /** The card's accessible name before the room's: "Answers", "Team". */
  label: string;
  load: (ceId: string, query: ReturnType<typeof rangeOf>) => Promise<T>;
  body: (report: T, busy: boolean) => ReactNode;
};

/** A range report's view: a RoomReport card for each room. */
export function RoomReports<T>({
  rooms,
  range,
  tz,
  ...report
}: { rooms: ChatEndpointView[]; range: RangeChoice; tz: string } & RangeReport<T>) {
  return <EachRoom rooms={rooms} card={(room) => <RoomReport room={room} range={range} tz={tz} {...report} />} />;
}

/**
 * One room's card of a range report (Answers, Team): its heading and downloads, a spinner while the first answer
 * loads, then `body` of the report (the previous one stays, `busy`, while a new range loads), or "No figures to show."
 * when the report could not be read.
 */
function RoomReport<T>({
  room,
  range,
  tz,
  kind,
  label,
  load,
  body,
}: { room: ChatEndpointView; range: RangeChoice; tz: string } & RangeReport<T>) {
  const query = useMemo(() => rangeOf(range, tz, new Date()), [range, tz]);
  const { data: report, loading } = useReport(useCallback(() => load(room.Id, query), [load, room.Id, query]));
  return (
    <section className="card reports__room" aria-label={`${label} of ${room.RoomName}`}>
      <RoomHead room={room} download={(format) => downloadReport(room, kind, format, query)} />
      {loading && !report ? <ReportLoading /> : report ? body(report, loading) : <p className="reports__empty">No figures to show.</p>}
    </section>
  );
}
