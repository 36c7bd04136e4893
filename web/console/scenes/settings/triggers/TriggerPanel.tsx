/** One trigger of the accordion: header summary, then message, after, pages, match type, Enabled, Save Changes and Remove. */
import { useId } from 'react';
import { MATCH_TYPE_LABELS, MATCH_TYPES, type MatchType, triggerSummary } from '../../../../../server/shared/triggers';
import { ChevronDownIcon } from '../../../components/icons';
import { FieldMessage } from '../../../components/ui';
import { SaveButton, useSaveButton } from '../saveButton';
import { errorsOf, type TriggerDraft, visibleErrors } from './drafts';

export function TriggerPanel({
  draft,
  open,
  changed,
  onToggle,
  onChange,
  onSave,
  onRemove,
}: {
  draft: TriggerDraft;
  open: boolean;
  changed: boolean;
  onToggle: () => void;
  onChange: (next: TriggerDraft) => void;
  onSave: () => Promise<boolean>;
  onRemove: () => void;
}) {
  const id = useId();
  const { state, run } = useSaveButton();
  const errors = visibleErrors(draft);
  const invalid = Object.keys(errorsOf(draft)).length > 0;
  const set = (patch: Partial<TriggerDraft>, field?: 'message' | 'after' | 'pages') =>
    onChange({ ...draft, ...patch, touched: field ? { ...draft.touched, [field]: true } : draft.touched });
  const summary = triggerSummary({ message: draft.message, after: draft.after, on: draft.pages }, draft.isNew);
  const field = (name: string) => `${id}-${name}`;

  return (
    <section className={`trigger${open ? ' trigger--open' : ''}${draft.enabled ? '' : ' trigger--off'}`}>
      <h3 className="trigger__head">
        <button type="button" className="trigger__toggle" aria-expanded={open} aria-controls={field('body')} onClick={onToggle}>
          <span className="trigger__summary">{summary}</span>
          {!draft.enabled && <span className="trigger__badge">Off</span>}
          <ChevronDownIcon />
        </button>
      </h3>
      {open && (
        <form
          id={field('body')}
          className="trigger__body"
          onSubmit={(event) => {
            event.preventDefault();
            if (!invalid) void run(onSave);
          }}
        >
          <div className={`field${errors.message ? ' field--invalid' : ''}`}>
            <label className="field__label" htmlFor={field('message')}>
              Message
            </label>
            <textarea
              id={field('message')}
              className="field__input"
              rows={2}
              value={draft.message}
              placeholder="Need help choosing? We're right here."
              aria-invalid={errors.message ? true : undefined}
              onChange={(e) => set({ message: e.target.value }, 'message')}
            />
            {errors.message && <p className="field__error">{errors.message}</p>}
          </div>
          <div className="trigger__row">
            <div className={`field trigger__after${errors.after ? ' field--invalid' : ''}`}>
              <label className="field__label" htmlFor={field('after')}>
                After (seconds)
              </label>
              <input
                id={field('after')}
                className="field__input"
                inputMode="numeric"
                value={draft.after}
                aria-invalid={errors.after ? true : undefined}
                onChange={(e) => set({ after: e.target.value.replace(/\D/g, '') }, 'after')}
              />
              {errors.after && <p className="field__error">{errors.after}</p>}
            </div>
            <fieldset className="radio-group trigger__match">
              <legend>Matching behaviour</legend>
              {MATCH_TYPES.map((m: MatchType) => (
                <label key={m}>
                  <input type="radio" name={field('match')} checked={draft.matchType === m} onChange={() => set({ matchType: m })} />
                  {MATCH_TYPE_LABELS[m]}
                </label>
              ))}
            </fieldset>
          </div>
          <div className={`field${errors.on ? ' field--invalid' : ''}`}>
            <label className="field__label" htmlFor={field('pages')}>
              On pages (one per line)
            </label>
            <textarea
              id={field('pages')}
              className="field__input trigger__pages"
              rows={3}
              value={draft.pages}
              placeholder={'/pricing\nhttps://example.com/checkout'}
              aria-invalid={errors.on ? true : undefined}
              aria-describedby={field('pages-hint')}
              onChange={(e) => set({ pages: e.target.value }, 'pages')}
            />
            <FieldMessage
              id={field('pages-hint')}
              error={errors.on}
              hint="A full address or a path. Compared with the page the visitor is on."
            />
          </div>
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              checked={draft.enabled}
              aria-checked={draft.enabled}
              onChange={(e) => set({ enabled: e.target.checked })}
            />
            <span className="switch__track" aria-hidden="true" />
            Enabled
          </label>
          <div className="trigger__actions">
            <SaveButton state={state} disabled={invalid || (!changed && state === 'idle')} />
            <button type="button" className="btn btn--ghost-danger" onClick={onRemove}>
              Remove
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
