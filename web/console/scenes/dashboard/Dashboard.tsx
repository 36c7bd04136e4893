/**
 * #/: the user's plan and widgets. Statistics cards, banners, teams and the rating prompt come with the
 * dashboard release; this screen shows only what the API already answers.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ChatEndpointView, ChatEndpointWithStats } from '../../../../server/shared';
import { listChatEndpoints } from '../../api';
import { ArrowRightIcon, SettingsIcon } from '../../components/icons';
import { Alert, ButtonLink, PageLoader } from '../../components/ui';
import { isConfigured, stepOf, widgetName } from '../../lib/rules';
import { useUser } from '../../session/session';

type Widget = ChatEndpointView & Partial<Pick<ChatEndpointWithStats, 'chatStats'>>;

export function isOnline(ce: Pick<ChatEndpointView, 'Step' | 'off' | 'status'>): boolean {
  return isConfigured(ce) && !ce.off && ce.status !== 'offline';
}

export function Dashboard() {
  const user = useUser();
  const [widgets, setWidgets] = useState<Widget[] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    listChatEndpoints()
      .then((list) => live && setWidgets(list))
      .catch(() => {
        if (!live) return;
        // The widgets of the signed-in user are already known; only their statistics are missing.
        setWidgets(user.ces);
        setNotice('Conversation statistics could not be loaded right now.');
      });
    return () => {
      live = false;
    };
  }, [user.ces]);

  return (
    <>
      <header className="page-header">
        <h1 className="page-header__title">Parley</h1>
        <Link to="/account" className="plan-badge" title="Manage your plan">
          {user.account.plan.label} plan <ArrowRightIcon />
        </Link>
      </header>
      {notice && (
        <Alert kind="info" onDismiss={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <section aria-labelledby="widgets-title">
        <h2 id="widgets-title" className="section-title">
          Your widgets
        </h2>
        {widgets === null ? (
          <PageLoader label="Loading your widgets…" />
        ) : widgets.length === 0 ? (
          <div className="card empty-state">
            <p className="muted">You have no widgets yet.</p>
          </div>
        ) : (
          <ul className="widget-grid">
            {[...widgets]
              .sort((a, b) => widgetName(a).localeCompare(widgetName(b)))
              .map((ce) => (
                <li key={ce.Id}>
                  <WidgetCard ce={ce} />
                </li>
              ))}
          </ul>
        )}
      </section>
    </>
  );
}

function WidgetCard({ ce }: { ce: Widget }) {
  const online = isOnline(ce);
  const configured = isConfigured(ce);
  return (
    <article className="card widget-card">
      <div className="widget-card__head">
        <span className={`status-dot${online ? ' status-dot--online' : ''}`} aria-hidden="true" />
        <h3 className="widget-card__name">
          {configured ? <Link to={`/settings/${ce.Id}/behavior`}>{widgetName(ce)}</Link> : widgetName(ce)}
        </h3>
        <span className="sr-only">{online ? 'Online' : 'Offline'}</span>
        {configured && (
          <Link to={`/settings/${ce.Id}/behavior`} className="icon-btn" aria-label={`Settings of ${widgetName(ce)}`}>
            <SettingsIcon />
          </Link>
        )}
      </div>
      {configured ? (
        ce.chatStats && (
          <dl className="widget-card__stats">
            <div>
              <dt>Today / 30 days</dt>
              <dd>
                {ce.chatStats.last24h}/{ce.chatStats.total}
              </dd>
            </div>
            <div>
              <dt>Chats per day</dt>
              <dd>{ce.chatStats.avg30d.toFixed(1)}</dd>
            </div>
          </dl>
        )
      ) : (
        <div className="widget-card__setup">
          <p className="muted">Step {stepOf(ce)} of 3 — setup not finished.</p>
          <ButtonLink to={`/setup/${ce.Id}`} variant="secondary">
            Finish setup
          </ButtonLink>
        </div>
      )}
    </article>
  );
}
