/** Form pieces the settings tabs share: the draft of a tab's fields, and labelled inputs bound to it. */
import { type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import type { ChatEndpointSettings, ChatEndpointView } from '../../../../server/shared';
import { FieldMessage } from '../../components/ui';
import type { SettingsChanges } from './types';

export type Key = keyof ChatEndpointSettings;

export type Draft<K extends Key> = {
  values: Pick<ChatEndpointSettings, K>;
  set: <F extends K>(field: F, value: ChatEndpointSettings[F]) => void;
  /** Several fields at once (one field's change that clears or sets others). */
  patch: (fields: Partial<Pick<ChatEndpointSettings, K>>) => void;
  /** The fields whose value differs from the saved widget. */
  changes: SettingsChanges;
  dirty: boolean;
};

function pick<K extends Key>(ce: ChatEndpointView, keys: readonly K[]): Pick<ChatEndpointSettings, K> {
  const out = {} as Pick<ChatEndpointSettings, K>;
  for (const k of keys) out[k] = ce[k];
  return out;
}

/**
 * A tab's draft of `keys`, starting from the saved widget and reset whenever the saved widget changes (after a
 * save). Reports dirtiness to the frame so leaving the tab asks first.
 */
export function useDraft<K extends Key>(ce: ChatEndpointView, keys: readonly K[], setDirty: (dirty: boolean) => void): Draft<K> {
  const [values, setValues] = useState(() => pick(ce, keys));
  // Only a new answer from the server resets the draft (`keys` is a constant of each tab).
  useEffect(() => setValues(pick(ce, keys)), [ce, keys]);
  const changes = useMemo(() => {
    const out: Record<string, unknown> = {};
    for (const k of keys) if (JSON.stringify(values[k]) !== JSON.stringify(ce[k])) out[k] = values[k];
    return out as SettingsChanges;
  }, [values, ce, keys]);
  const dirty = Object.keys(changes).length > 0;
  useEffect(() => setDirty(dirty), [dirty, setDirty]);
  return {
    values,
    set: (field, value) => setValues((v) => ({ ...v, [field]: value })),
    patch: (fields) => setValues((v) => ({ ...v, ...fields })),
    changes,
    dirty,
  };
}

export function Section({ title, intro, children, id }: { title: string; intro?: ReactNode; children: ReactNode; id?: string }) {
  const headingId = useId();
  return (
    <section className="card settings-section" aria-labelledby={headingId} id={id}>
      <h2 id={headingId}>{title}</h2>
      {intro && <p className="settings-section__intro muted">{intro}</p>}
      {children}
    </section>
  );
}

export function Check({
  label,
  hint,
  checked,
  onChange,
  disabled,
  id,
}: {
  label: ReactNode;
  hint?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  id?: string;
}) {
  return (
    <label className={`switch-row${disabled ? ' switch-row--disabled' : ''}`}>
      <input type="checkbox" id={id} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span className="switch-row__text">
        <span>{label}</span>
        {hint && <span className="switch-row__hint">{hint}</span>}
      </span>
    </label>
  );
}

type InputProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
  error?: string | null;
  disabled?: boolean;
  type?: 'text' | 'url' | 'email';
  placeholder?: string;
  multiline?: boolean;
  id?: string;
  maxLength?: number;
  onFocus?: () => void;
  onBlur?: () => void;
};

export function Input({
  label,
  value,
  onChange,
  hint,
  error,
  disabled,
  type = 'text',
  placeholder,
  multiline,
  id,
  maxLength,
  onFocus,
  onBlur,
}: InputProps) {
  const auto = useId();
  const fieldId = id ?? auto;
  const messageId = `${fieldId}-message`;
  const common = {
    id: fieldId,
    className: 'field__input',
    value,
    disabled,
    placeholder,
    maxLength: maxLength ?? 4000,
    onFocus,
    onBlur,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error || hint ? messageId : undefined,
  } as const;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={fieldId}>
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={type} onChange={(e) => onChange(e.target.value)} />
      )}
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

export function Select<V extends string | number>({
  label,
  value,
  options,
  onChange,
  disabled,
  hint,
  id,
}: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  disabled?: boolean;
  hint?: ReactNode;
  id?: string;
}) {
  const auto = useId();
  const fieldId = id ?? auto;
  const numeric = typeof value === 'number';
  return (
    <div className="field">
      <label className="field__label" htmlFor={fieldId}>
        {label}
      </label>
      <select
        id={fieldId}
        className="field__input field__select"
        value={String(value)}
        disabled={disabled}
        // Select fields convert to numbers; a non-numeric value becomes 0 (spec section 5).
        onChange={(e) => onChange((numeric ? Number(e.target.value) || 0 : e.target.value) as V)}
      >
        {options.map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
      {hint && <p className="field__hint">{hint}</p>}
    </div>
  );
}

export function Radios<V extends string>({
  legend,
  name,
  value,
  options,
  onChange,
  disabled,
}: {
  legend: string;
  name: string;
  value: V;
  options: readonly { value: V; label: ReactNode; disabled?: boolean }[];
  onChange: (value: V) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="radio-group radio-group--stacked" disabled={disabled}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className={o.disabled ? 'radio--disabled' : undefined}>
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={value === o.value}
            disabled={o.disabled}
            onChange={() => onChange(o.value)}
          />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

/** Yes/No radios for a boolean field. */
export function YesNo({
  legend,
  name,
  value,
  onChange,
  onFocus,
}: {
  legend: string;
  name: string;
  value: boolean;
  onChange: (v: boolean) => void;
  onFocus?: () => void;
}) {
  return (
    <fieldset className="radio-group" onFocus={onFocus}>
      <legend>{legend}</legend>
      <label>
        <input type="radio" name={name} checked={value} onChange={() => onChange(true)} /> Yes
      </label>
      <label>
        <input type="radio" name={name} checked={!value} onChange={() => onChange(false)} /> No
      </label>
    </fieldset>
  );
}

let zones: string[] | null = null;
/** Every IANA time zone the browser supports (spec section 9: the choices are the browser's list). */
export function timeZones(current: string): string[] {
  if (!zones) {
    const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
    zones = intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : ['UTC'];
    if (!zones.includes('UTC')) zones = ['UTC', ...zones];
  }
  return zones.includes(current) || current === '' ? zones : [current, ...zones];
}

/** The browser's own time zone, the default for a schedule. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Transcripts read the channel's history: the user token's scope for OauthV1 widgets, the bot's otherwise. */
export function canReadHistory(ce: Pick<ChatEndpointView, 'OauthV1' | 'Scope' | 'BotScope'>): boolean {
  return (ce.OauthV1 ? ce.Scope : ce.BotScope).split(/[\s,]+/).includes('channels:history');
}
