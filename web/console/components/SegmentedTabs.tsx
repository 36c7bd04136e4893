/**
 * A row of segmented buttons that choose what the panel under them shows (the embed code's project type, the identity
 * code's language, the plans' billing period), as a WAI-ARIA tab list: the chosen tab is the one in the Tab order, and
 * the arrow keys, Home and End move the choice and the focus along the row (wrapping at the ends).
 */
import type { KeyboardEvent } from 'react';

export function SegmentedTabs<V extends string>({
  values,
  value,
  onChange,
  labelOf,
  label,
}: {
  values: readonly V[];
  value: V;
  onChange: (value: V) => void;
  labelOf: (value: V) => string;
  /** The list's name: `{ by: id }` names it by a visible element's id, `{ text }` by a text of its own. */
  label: { by: string } | { text: string };
}) {
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = values.indexOf(value);
    const last = values.length - 1;
    const keys: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index <= 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const next = keys[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const chosen = values[next];
    if (chosen !== undefined) onChange(chosen);
    event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  };
  return (
    <div
      className="segmented"
      role="tablist"
      aria-labelledby={'by' in label ? label.by : undefined}
      aria-label={'text' in label ? label.text : undefined}
      onKeyDown={move}
    >
      {values.map((v) => (
        <button
          key={v}
          type="button"
          role="tab"
          aria-selected={value === v}
          tabIndex={value === v ? 0 : -1}
          className={`segmented__item${value === v ? ' segmented__item--active' : ''}`}
          onClick={() => onChange(v)}
        >
          {labelOf(v)}
        </button>
      ))}
    </div>
  );
}
