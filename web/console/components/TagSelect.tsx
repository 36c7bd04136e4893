/**
 * The tag a setting gives the conversations it answers (a question group's, an article's): "No tag" or one of the
 * widgets' tags (Behavior → Tags). A tag kept that the lists no longer have stays shown until changed.
 */
import type { ReactNode } from 'react';

export function TagSelect({
  id,
  value,
  tags,
  hint,
  onChange,
}: {
  id: string;
  value: string;
  tags: readonly string[];
  hint: ReactNode;
  onChange: (tag: string) => void;
}) {
  const choices = value && !tags.includes(value) ? [...tags, value] : tags;
  const none = choices.length === 0;
  return (
    <div className="field tag-select">
      <label className="field__label" htmlFor={id}>
        Tag the conversation
      </label>
      <select
        id={id}
        className="field__input"
        value={value}
        disabled={none}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">No tag</option>
        {choices.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <p className="field__hint" id={`${id}-hint`}>
        {none ? 'Add tags in Settings → Behavior → Tags first.' : hint}
      </p>
    </div>
  );
}
