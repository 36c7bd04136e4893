/** The Parley mark and wordmark. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="var(--c-primary)" />
      <path
        d="M9 10.5A3.5 3.5 0 0 1 12.5 7h7A3.5 3.5 0 0 1 23 10.5v5a3.5 3.5 0 0 1-3.5 3.5H15l-4.2 3.4c-.6.5-1.8.1-1.8-.8V10.5z"
        fill="#fff"
      />
      <circle cx="13" cy="13" r="1.4" fill="var(--c-primary)" />
      <circle cx="16" cy="13" r="1.4" fill="var(--c-primary)" />
      <circle cx="19" cy="13" r="1.4" fill="var(--c-primary)" />
    </svg>
  );
}

export function Logo({ size = 32 }: { size?: number }) {
  return (
    <span className="logo">
      <LogoMark size={size} />
      <span className="logo__word">Parley</span>
    </span>
  );
}
