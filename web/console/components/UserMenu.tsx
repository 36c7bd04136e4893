/** The user's e-mail in the header, opening a menu with Support, Change password and Logout. */
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ChevronDownIcon, KeyIcon, LifebuoyIcon, LogoutIcon } from './icons';

export function UserMenu({ email, onChangePassword, onLogout }: { email: string; onChangePassword: () => void; onLogout: () => void }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    if (!open) return undefined;
    const first = rootRef.current?.querySelector<HTMLElement>('[role="menuitem"]');
    first?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      items[(at + 1) % items.length]?.focus();
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      items[(at - 1 + items.length) % items.length]?.focus();
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  const choose = (action: () => void) => () => {
    close(false);
    action();
  };

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="user-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((was) => !was)}
      >
        <span className="avatar" aria-hidden="true">
          {email.slice(0, 1).toUpperCase()}
        </span>
        <span className="user-menu__email">{email}</span>
        <ChevronDownIcon />
      </button>
      {open && (
        <div className="user-menu__list" role="menu" id={menuId} aria-label="Account menu" onKeyDown={onMenuKey}>
          <p className="user-menu__signed-in">
            Signed in as <strong>{email}</strong>
          </p>
          <button type="button" role="menuitem" onClick={choose(() => navigate('/support'))}>
            <LifebuoyIcon /> Support
          </button>
          <button type="button" role="menuitem" onClick={choose(onChangePassword)}>
            <KeyIcon /> Change password
          </button>
          <hr />
          <button type="button" role="menuitem" onClick={choose(onLogout)}>
            <LogoutIcon /> Logout
          </button>
        </div>
      )}
    </div>
  );
}
