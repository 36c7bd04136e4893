/** Small building blocks shared by the screens: buttons, fields, alerts, loaders. */
import { type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, useEffect, useId } from 'react';
import { Link, type LinkProps } from 'react-router-dom';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'dark' | 'success';

function buttonClass(variant: Variant, block: boolean | undefined, extra: string | undefined): string {
  return ['btn', `btn--${variant}`, block ? 'btn--block' : '', extra ?? ''].filter(Boolean).join(' ');
}

export function Button({
  variant = 'primary',
  block,
  busy,
  className,
  children,
  disabled,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; block?: boolean; busy?: boolean }) {
  return (
    <button
      type="button"
      className={buttonClass(variant, block, className)}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...props}
    >
      {busy && <span className="spinner spinner--inline" aria-hidden="true" />}
      {children}
    </button>
  );
}

export function ButtonLink({ variant = 'primary', block, className, ...props }: LinkProps & { variant?: Variant; block?: boolean }) {
  return <Link className={buttonClass(variant, block, className)} {...props} />;
}

/**
 * What a field says under it, by the id its control's aria-describedby names: its error when it has one (it takes the
 * hint's place), else its hint, else nothing.
 */
export function FieldMessage({ id, error, hint }: { id: string; error?: ReactNode; hint?: ReactNode }) {
  if (error)
    return (
      <p className="field__error" id={id}>
        {error}
      </p>
    );
  if (hint)
    return (
      <p className="field__hint" id={id}>
        {hint}
      </p>
    );
  return null;
}

export function TextField({
  label,
  error,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | null; hint?: ReactNode }) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        {...input}
      />
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

export function Alert({
  kind,
  title,
  children,
  onDismiss,
}: {
  kind: 'error' | 'success' | 'info' | 'warning';
  title?: string;
  children: ReactNode;
  onDismiss?: () => void;
}) {
  return (
    <div className={`alert alert--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <div className="alert__body">
        {title && <strong className="alert__title">{title}</strong>}
        <div>{children}</div>
      </div>
      {onDismiss && (
        <button type="button" className="alert__close" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}

export function PageLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="page-loader" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1 className="page-header__title">{title}</h1>
      {children && <div className="page-header__extra">{children}</div>}
    </header>
  );
}

/** Names the browser tab after the screen, so tabs, history and screen readers say where the user is. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Parley` : 'Parley';
    // Screens that set no title of their own show the product name, not the previous screen's.
    return () => {
      document.title = 'Parley';
    };
  }, [title]);
}
