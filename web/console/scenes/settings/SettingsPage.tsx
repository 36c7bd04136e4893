/**
 * #/settings/{ceId}/{tab}: the frame every settings tab shares (spec section 2): page header with the tab's
 * title, the room name and the tab bar; the 'Error:' banner; the setup link for unfinished widgets; the
 * unsaved-changes question when leaving a tab. Each tab is its own lazily loaded module (contract in types.ts).
 */
import { type ComponentType, lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useNavigate, useParams } from 'react-router-dom';
import type { ChatEndpointView } from '../../../../server/shared';
import { messageOf } from '../../api';
import { updateConfig } from '../../api/settings';
import { useConfirm } from '../../components/ConfirmDialog';
import { NotFoundRedirect } from '../../components/guards';
import { ArrowRightIcon } from '../../components/icons';
import { PageLoader, useDocumentTitle } from '../../components/ui';
import { isConfigured, isSettingsTab, type SettingsTab, widgetName } from '../../lib/rules';
import { useSession, useUser } from '../../session/session';
import { isLocked, TAB_META, tabMeta, unlockLabel } from './tabs';
import type { SettingsChanges, SettingsTabProps } from './types';

const TABS: Record<SettingsTab, ComponentType<SettingsTabProps>> = {
  behavior: lazy(() => import('./tabs/BehaviorTab')),
  appearance: lazy(() => import('./tabs/AppearanceTab')),
  'op-hours': lazy(() => import('./tabs/OperatingHoursTab')),
  install: lazy(() => import('./tabs/InstallTab')),
  triggers: lazy(() => import('./tabs/TriggersTab')),
  'saved-replies': lazy(() => import('./tabs/SavedRepliesTab')),
  integrations: lazy(() => import('./tabs/IntegrationsTab')),
  'question-groups': lazy(() => import('./tabs/QuestionGroupsTab')),
  answers: lazy(() => import('./tabs/AnswersTab')),
};

export function SettingsPage() {
  const { ceId, tab } = useParams();
  const user = useUser();
  const { reload } = useSession();
  // The widget as the server last answered it: fresh from the server when the page opens for a widget.
  const [fresh, setFresh] = useState<ChatEndpointView | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    let live = true;
    setFresh(null);
    setLoadFailed(false);
    reload().then(
      (u) => {
        if (live) setFresh(u.ces.find((c) => c.Id === ceId) ?? null);
      },
      () => {
        if (live) setLoadFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [ceId, reload]);

  const known = user.ces.find((c) => c.Id === ceId);
  if (!known || !tab || !isSettingsTab(tab)) return <NotFoundRedirect />;
  // A failed refresh falls back to what the session already holds.
  const ce = fresh?.Id === known.Id ? fresh : loadFailed ? known : null;
  if (!ce) return <PageLoader label="Loading the widget's settings…" />;
  return <WidgetSettings key={ce.Id} initial={ce} tab={tab} />;
}

function WidgetSettings({ initial, tab }: { initial: ChatEndpointView; tab: SettingsTab }) {
  const user = useUser();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [ce, setCe] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const errorRef = useRef<HTMLDivElement>(null);
  const meta = tabMeta(tab);
  const plan = user.account.effectivePlan;
  useDocumentTitle(`${meta.title} · ${widgetName(ce)}`);

  // Another tab starts with no error banner and nothing unsaved (set while rendering, so no frame shows the old state).
  const [shownTab, setShownTab] = useState(tab);
  if (shownTab !== tab) {
    setShownTab(tab);
    setError(null);
    setDirty(false);
  }

  const showError = useCallback((message: string) => setError(message), []);
  const clearError = useCallback(() => setError(null), []);
  useEffect(() => {
    if (!error) return;
    window.scrollTo({ top: 0, behavior: 'smooth' });
    errorRef.current?.focus({ preventScroll: true });
  }, [error]);

  const save = useCallback(
    async (changes: SettingsChanges) => {
      setError(null);
      try {
        setCe(await updateConfig(ce.Id, changes));
        setDirty(false);
        return true;
      } catch (err) {
        setError(messageOf(err));
        return false;
      }
    },
    [ce.Id],
  );

  // Unsaved changes: in-app links ask first (capture phase, before the router's own click handler), and the
  // browser asks before the page is closed or reloaded.
  const { ask, close } = confirm;
  useEffect(() => {
    if (!dirty) return undefined;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = (event.target as Element | null)?.closest?.('a');
      const href = anchor?.getAttribute('href') ?? '';
      if (!anchor || !href.startsWith('#/') || anchor.target === '_blank') return;
      const to = href.slice(1);
      if (to === window.location.hash.slice(1)) return;
      event.preventDefault();
      event.stopPropagation();
      ask({
        title: 'Leave without saving?',
        body: <p>You have unsaved changes on this tab. They are lost if you leave now.</p>,
        confirmLabel: 'Leave without saving',
        danger: true,
        action: async () => {
          close();
          setDirty(false);
          await navigate(to);
        },
      });
    };
    const onUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    document.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onUnload);
    };
  }, [dirty, ask, close, navigate]);

  const Tab = TABS[tab];
  const locked = isLocked(meta, plan);
  return (
    <div className="settings">
      <header className="settings__head">
        <div className="settings__titles">
          <h1 className="page-header__title">{meta.title}</h1>
          <p className="settings__room muted">{widgetName(ce)}</p>
        </div>
        <nav className="settings-tabs" aria-label="Settings">
          {TAB_META.map((m) => (
            <NavLink
              key={m.tab}
              to={`/settings/${ce.Id}/${m.tab}`}
              className="settings-tabs__tab"
              aria-label={isLocked(m, plan) ? `${m.label} (needs ${unlockLabel(m)})` : undefined}
            >
              {m.label}
              {isLocked(m, plan) && (
                <span className="basic-label" title={`Included from the ${unlockLabel(m)} plan`}>
                  {unlockLabel(m)}
                </span>
              )}
            </NavLink>
          ))}
        </nav>
      </header>
      {error && (
        <div className="alert alert--error settings__error" role="alert" tabIndex={-1} ref={errorRef}>
          <div className="alert__body">
            <strong className="alert__title">Error:</strong>
            <div>{error}</div>
          </div>
          <button type="button" className="alert__close" onClick={clearError} aria-label="Dismiss">
            ×
          </button>
        </div>
      )}
      {isConfigured(ce) ? (
        <Suspense fallback={<PageLoader />}>
          <Tab
            ce={ce}
            user={user}
            plan={plan}
            locked={locked}
            save={save}
            replaceCe={setCe}
            setDirty={setDirty}
            showError={showError}
            clearError={clearError}
          />
        </Suspense>
      ) : (
        <section className="card empty-state">
          <h2>Finish setting up this widget first</h2>
          <p className="muted">Its settings open once the widget is connected to a Slack channel.</p>
          <Link to={`/setup/${ce.Id}`} className="btn btn--primary">
            Continue setup <ArrowRightIcon />
          </Link>
        </section>
      )}
      {confirm.dialog}
    </div>
  );
}
