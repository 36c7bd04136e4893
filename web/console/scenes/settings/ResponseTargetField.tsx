/**
 * A response target in minutes (Behavior → Notifications): empty or 0 is no target. The text is kept as typed, so a
 * half-typed or wrong value shows its problem (the rule the API applies, shared/tags.ts) and keeps the tab from saving.
 */
import { useEffect, useState } from 'react';
import { responseTargetProblem } from '../../../../server/shared/tags';
import { Input } from './form';

/** The minutes a typed text stands for: empty is 0 (no target); text that is no number is NaN (a problem). */
export function targetMinutesOf(text: string): number {
  const t = text.trim();
  return t === '' ? 0 : /^\d+$/.test(t) ? Number(t) : Number.NaN;
}

export function ResponseTargetField(props: { label: string; hint: string; minutes: number; onChange: (minutes: number) => void }) {
  const [text, setText] = useState(props.minutes > 0 ? String(props.minutes) : '');
  // A reload or a reset of the draft brings another value than the one typed (NaN is the typed text's own problem).
  useEffect(() => {
    if (Number.isNaN(props.minutes)) return;
    setText((typed) => (targetMinutesOf(typed) === props.minutes ? typed : props.minutes > 0 ? String(props.minutes) : ''));
  }, [props.minutes]);
  const minutes = targetMinutesOf(text);
  return (
    <Input
      label={props.label}
      value={text}
      placeholder="No target"
      hint={props.hint}
      error={text.trim() === '' ? null : responseTargetProblem(minutes)}
      onChange={(next) => {
        setText(next);
        props.onChange(targetMinutesOf(next));
      }}
    />
  );
}
