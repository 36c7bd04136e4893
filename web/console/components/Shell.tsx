/** The signed-in frame: header (logo, Docs, FAQs, user menu), left sidebar, and a drawer menu on small screens. */
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { sidebarFor } from '../lib/rules';
import { useSession, useUser } from '../session/session';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { AccountIcon, CloseIcon, HomeIcon, MenuIcon, ReportsIcon, SettingsIcon } from './icons';
import { Logo } from './Logo';
import { UserMenu } from './UserMenu';

export const DOCS_URL = '/docs';
export const FAQ_URL = '/pricing/#FAQ';

export function Shell() {
  const user = useUser();
  const { signOut } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);

  // After moving to another screen the drawer menu closes, and keyboard and screen-reader users continue from the
  // new content, at its top.
  const shownPath = useRef(location.pathname);
  useEffect(() => {
    if (shownPath.current === location.pathname) return;
    shownPath.current = location.pathname;
    setMenuOpen(false);
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [location.pathname]);
  useEffect(() => {
    if (!menuOpen) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const logout = async () => {
    await signOut();
    await navigate('/login', { replace: true });
  };

  return (
    <div className={`shell${menuOpen ? ' shell--menu-open' : ''}`}>
      {/* A button, not a link: the console routes on the URL's hash, so an in-page "#main" link would navigate. */}
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <header className="topbar">
        <button
          type="button"
          className="icon-btn topbar__menu"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpen}
          aria-controls="sidebar"
          onClick={() => setMenuOpen((was) => !was)}
        >
          {menuOpen ? <CloseIcon /> : <MenuIcon />}
        </button>
        <Link to="/" className="topbar__logo" aria-label="Parley dashboard">
          <Logo size={30} />
        </Link>
        <nav className="topbar__links" aria-label="Help">
          <a href={DOCS_URL}>Docs</a>
          <a href={FAQ_URL}>FAQs</a>
        </nav>
        <UserMenu email={user.email} onChangePassword={() => setChangingPassword(true)} onLogout={logout} />
      </header>
      <div className="shell__body">
        <Sidebar />
        <div className="shell__scrim" aria-hidden="true" onClick={() => setMenuOpen(false)} />
        <main className="shell__main" id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      <ChangePasswordDialog email={user.email} open={changingPassword} onClose={() => setChangingPassword(false)} />
    </div>
  );
}

function Sidebar() {
  const user = useUser();
  const items = sidebarFor(user);
  const location = useLocation();
  const inSettings = location.pathname.startsWith('/settings');
  return (
    <nav className="sidebar" id="sidebar" aria-label="Main">
      <ul className="sidebar__list">
        <li>
          <NavLink to="/" end className="sidebar__link">
            <HomeIcon /> Dashboard
          </NavLink>
        </li>
        <li>
          <NavLink to="/settings" className={`sidebar__link${inSettings ? ' active' : ''}`}>
            <SettingsIcon /> Settings
          </NavLink>
          {items.settingsWidgets.length > 0 && (
            <ul className="sidebar__sublist" aria-label="Widgets">
              {items.settingsWidgets.map((widget) => (
                <li key={widget.id}>
                  <NavLink
                    to={`/settings/${widget.id}/behavior`}
                    className={() => `sidebar__sublink${location.pathname.startsWith(`/settings/${widget.id}/`) ? ' active' : ''}`}
                  >
                    {widget.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          )}
        </li>
        {items.account && (
          <li>
            <NavLink to="/account" className="sidebar__link">
              <AccountIcon /> Account
            </NavLink>
          </li>
        )}
        {items.reports && (
          <li>
            <NavLink to="/reports" className="sidebar__link">
              <ReportsIcon /> Reports
            </NavLink>
          </li>
        )}
      </ul>
      <ul className="sidebar__list sidebar__help" aria-label="Help">
        <li>
          <a className="sidebar__link" href={DOCS_URL}>
            Docs
          </a>
        </li>
        <li>
          <a className="sidebar__link" href={FAQ_URL}>
            FAQs
          </a>
        </li>
      </ul>
    </nav>
  );
}
