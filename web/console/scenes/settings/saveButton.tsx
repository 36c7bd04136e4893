/**
 * The save button states of spec section 4: 'Saving...' while saving, then 'Saved' for 1.5 seconds, the saved
 * text cleared after a further 1.5 seconds, then back to 'Save Changes'. A failed save goes straight back.
 */
import { type ButtonHTMLAttributes, useCallback, useEffect, useRef, useState } from 'react';
import { CheckIcon } from '../../components/icons';

export type SaveState = 'idle' | 'saving' | 'saved' | 'clearing';

/** How long 'Saved' shows, and how long after that the saved text takes to clear. */
export const SAVED_MS = 1500;
export const CLEARING_MS = 1500;

export function useSaveButton(): { state: SaveState; run: (save: () => Promise<boolean>) => Promise<boolean> } {
  const [state, setState] = useState<SaveState>('idle');
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((t) => window.clearTimeout(t)), []);

  const run = useCallback(async (save: () => Promise<boolean>) => {
    timers.current.forEach((t) => window.clearTimeout(t));
    timers.current = [];
    setState('saving');
    let ok = false;
    try {
      ok = await save();
    } finally {
      if (!ok) setState('idle');
    }
    if (ok) {
      setState('saved');
      timers.current.push(
        window.setTimeout(() => setState('clearing'), SAVED_MS),
        window.setTimeout(() => setState('idle'), SAVED_MS + CLEARING_MS),
      );
    }
    return ok;
  }, []);
  return { state, run };
}

export function SaveButton({
  state,
  label = 'Save Changes',
  className,
  disabled,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { state: SaveState; label?: string }) {
  const saved = state === 'saved' || state === 'clearing';
  return (
    <button
      type="submit"
      className={[
        'btn',
        saved ? 'btn--success' : 'btn--primary',
        'save-btn',
        state === 'clearing' ? 'save-btn--clearing' : '',
        className ?? '',
      ]
        .filter(Boolean)
        .join(' ')}
      disabled={disabled || state === 'saving'}
      aria-busy={state === 'saving' || undefined}
      aria-live="polite"
      {...props}
    >
      {state === 'saving' && <span className="spinner spinner--inline" aria-hidden="true" />}
      {saved && <CheckIcon />}
      <span className="save-btn__label">{state === 'saving' ? 'Saving...' : saved ? 'Saved' : label}</span>
    </button>
  );
}
