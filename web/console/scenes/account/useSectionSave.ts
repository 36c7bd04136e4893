/**
 * An account section's save: busy while it runs, its button saying Saved for 1.5 s after (spec section 4, "Button
 * feedback"), and the error of a failed save for the section's alert (dismissed with `clearError`).
 */
import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../../api';
import { SAVED_MS } from '../settings/saveButton';

export function useSectionSave(): {
  busy: boolean;
  saved: boolean;
  error: string | null;
  clearError: () => void;
  run: (save: () => Promise<void>) => Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((timer) => window.clearTimeout(timer)), []);

  const run = async (save: () => Promise<void>) => {
    setError(null);
    setBusy(true);
    try {
      await save();
      setSaved(true);
      timers.current.push(window.setTimeout(() => setSaved(false), SAVED_MS));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, saved, error, clearError: () => setError(null), run };
}
