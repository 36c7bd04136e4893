/** Frame of the signed-out screens: the logo, a card with the form, and optionally a brand panel beside it. */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from './Logo';

export function AuthLayout({
  title,
  subtitle,
  aside,
  footer,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  aside?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={`auth${aside ? ' auth--split' : ''}`}>
      {aside && <aside className="auth__aside">{aside}</aside>}
      <main className="auth__main">
        <div className="auth__panel">
          <Link to="/" className="auth__logo" aria-label="Parley home">
            <Logo size={36} />
          </Link>
          <div className="auth__card">
            <h1 className="auth__title">{title}</h1>
            {subtitle && <div className="auth__subtitle">{subtitle}</div>}
            {children}
          </div>
          {footer && <div className="auth__footer">{footer}</div>}
        </div>
      </main>
    </div>
  );
}
