/** Pieces every report shares: a room's heading with the download buttons, and loading a report. */
import { useEffect, useState } from 'react';
import type { ChatEndpointView } from '../../../../server/shared';
import { Button } from '../../components/ui';

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
