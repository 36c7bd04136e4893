/**
 * The widget's tags (Behavior → Tags): type a word and Add (or Enter), remove one with its ×.
 * Checked as typed by the rule the API applies (shared/tags.ts); saved with the tab's Save Changes.
 */
import { type KeyboardEvent, useId, useState } from 'react';
import { normalizeTag, TAGS_MAX, tagProblem } from '../../../../server/shared/tags';
import { FieldMessage } from '../../components/ui';

export function TagsField({ tags, onChange }: { tags: readonly string[]; onChange: (tags: string[]) => void }) {
  const [text, setText] = useState('');
  const id = useId();
  const tag = normalizeTag(text);
  const problem =
    text.trim() === ''
      ? null
      : (tagProblem(tag) ??
        (tags.includes(tag)
          ? `“${tag}” is in the list already.`
          : tags.length >= TAGS_MAX
            ? `A widget has at most ${TAGS_MAX} tags.`
            : null));
  const add = () => {
    if (text.trim() === '' || problem) return;
    onChange([...tags, tag]);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the tag instead of saving the whole form.
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };
  return (
    <div className={`field${problem ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        New tag
      </label>
      <div className="tags-field__add">
        <input
          id={id}
          className="field__input"
          value={text}
          maxLength={40}
          placeholder="billing"
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-message`}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="btn btn--secondary" onClick={add} disabled={text.trim() === '' || problem !== null}>
          Add
        </button>
      </div>
      <FieldMessage
        id={`${id}-message`}
        error={problem}
        hint={
          <>
            One word each: letters, digits, - and _. Operators pick them on the conversation header in Slack or type{' '}
            <code>/parley tag 12 billing</code>.
          </>
        }
      />
      {tags.length === 0 ? (
        <p className="muted">No tags yet.</p>
      ) : (
        <ul className="tags-field__list" aria-label="Tags">
          {tags.map((t) => (
            <li key={t} className="tags-field__tag">
              <span>{t}</span>
              <button
                type="button"
                className="tags-field__remove"
                aria-label={`Remove tag ${t}`}
                onClick={() => onChange(tags.filter((other) => other !== t))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
