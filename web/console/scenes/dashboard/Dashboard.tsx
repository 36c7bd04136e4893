/**
 * #/: the dashboard (spec "Dashboard"). Widgets grouped by Slack team with their main user, cards with status
 * and 30-day statistics, unfinished widgets, adding channels and teams, banners, and the satisfaction prompt.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError, listChatEndpoints, messageOf } from '../../api';
import { createWidgetInTeam, deleteWidget, slackAuthorizeNewTeamUrl, slackAuthorizeUrl } from '../../api/widgets';
import { useConfirm } from '../../components/ConfirmDialog';
import { ArrowRightIcon, PlusIcon, SettingsIcon } from '../../components/icons';
import { SlackMark, TrashIcon, UserIcon } from '../../components/moreIcons';
import { SlackProblemAlert } from '../../components/SlackProblemAlert';
import { Sparkline } from '../../components/Sparkline';
import { Alert, Button, ButtonLink, PageLoader, useDocumentTitle } from '../../components/ui';
import { isConfigured, stepOf } from '../../lib/rules';
import { type DashboardNotice, WIDGET_DELETED } from '../../lib/slackProblems';
import { useSession, useUser } from '../../session/session';
import {
  bannersFor,
  canDeleteUnfinished,
  channelName,
  type DashboardWidget,
  formatAverage,
  groupByTeam,
  isWidgetOnline,
  planStateName,
  sparklineDays,
  type TeamGroup,
} from './dashboardRules';
import { RatingPrompt } from './RatingPrompt';

const NEW_WIDGET_ERROR = 'error creating new widget, contact support';
/** An unfinished widget's deletion reloads the page after this long (spec section 4). */
const RELOAD_AFTER_DELETE_MS = 1000;

export function Dashboard() {
  useDocumentTitle('Dashboard');
  const user = useUser();
  const { reload } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const confirm = useConfirm();
  const [stats, setStats] = useState<DashboardWidget[] | null>(null);
  const [statsFailed, setStatsFailed] = useState(false);
  // A screen that sent the user here may say why (a widget deleted on its setup page).
  const notice = (location.state as DashboardNotice | null)?.notice;
  const [alert, setAlert] = useState<{ kind: 'error' | 'success'; text: string } | null>(notice ? { kind: 'success', text: notice } : null);
  const [adding, setAdding] = useState<string | null>(null);
  const swapped = params.has('userSwapped');

  // The list call takes nothing from user.ces, yet a new list of widgets (one added, linked or deleted) means new
  // statistics to load: user.ces says when to load them again.
  // biome-ignore lint/correctness/useExhaustiveDependencies(user.ces): the reload trigger explained above
  useEffect(() => {
    let live = true;
    listChatEndpoints()
      .then((list) => live && setStats(list))
      .catch(() => live && setStatsFailed(true));
    return () => {
      live = false;
    };
  }, [user.ces]);

  // The user's widgets are authoritative for what exists; the list call adds the statistics.
  const widgets: DashboardWidget[] = useMemo(() => {
    const byId = new Map((stats ?? []).map((ce) => [ce.Id, ce]));
    return user.ces.map((ce) => ({ ...ce, chatStats: byId.get(ce.Id)?.chatStats }));
  }, [user.ces, stats]);
  const teams = useMemo(() => groupByTeam(widgets), [widgets]);
  const banners = useMemo(() => bannersFor(user, widgets), [user, widgets]);
  const plan = user.account.effectivePlan;
  const atLimit = user.ces.length >= plan.maxChannels;
  // A widget never linked to Slack (step 1) is the one a new team's consent goes to: no second widget, no upsell.
  const unlinked = useMemo(() => user.ces.find((ce) => stepOf(ce) === 1), [user.ces]);

  /**
   * A widget in a team Parley is in opens its setup at step 2; for a new team, Slack's consent comes first and
   * the widget is made only when it is given, or the unlinked widget is linked. The plan limit sends to the upsell.
   */
  const addWidget = useCallback(
    async (key: string, existingId?: string) => {
      if (atLimit && (existingId || !unlinked)) {
        await navigate('/please-upgrade');
        return;
      }
      setAdding(key);
      setAlert(null);
      try {
        if (!existingId && unlinked) {
          window.location.href = await slackAuthorizeUrl(unlinked.Id, 'install');
          return;
        }
        if (!existingId) {
          window.location.href = await slackAuthorizeNewTeamUrl();
          return;
        }
        const id = await createWidgetInTeam(existingId);
        await reload();
        await navigate(`/setup/${id}`);
      } catch (err) {
        setAdding(null);
        if (err instanceof ApiError && err.status === 402) await navigate('/please-upgrade');
        else setAlert({ kind: 'error', text: existingId ? NEW_WIDGET_ERROR : messageOf(err) });
      }
    },
    [atLimit, unlinked, navigate, reload],
  );

  const changeMainUser = (team: TeamGroup) =>
    confirm.ask({
      title: 'Change the main Slack user?',
      body: (
        <p>
          Parley creates channels as the main Slack user
          {team.mainUser ? (
            <>
              {' '}
              (now <strong>{team.mainUser}</strong>)
            </>
          ) : null}
          . You will approve Parley in Slack again, signed in as the new user.
        </p>
      ),
      confirmLabel: 'Continue to Slack',
      action: async () => {
        if (!team.anchor) throw new Error(NEW_WIDGET_ERROR);
        window.location.href = await slackAuthorizeUrl(team.anchor.Id, 'swap_user');
      },
    });

  const deleteUnfinished = (ce: DashboardWidget) =>
    confirm.ask({
      title: 'Delete this widget?',
      body: <p>This widget was never connected to a channel, so no site uses it yet.</p>,
      confirmLabel: 'Delete widget',
      danger: true,
      action: async () => {
        await deleteWidget(ce.Id);
        confirm.close();
        setAlert({ kind: 'success', text: WIDGET_DELETED });
        window.setTimeout(() => window.location.reload(), RELOAD_AFTER_DELETE_MS);
      },
    });

  return (
    <div className="dashboard">
      <header className="page-header">
        <h1 className="page-header__title">Dashboard</h1>
        <Link to="/account" className="plan-badge" title="Manage your plan">
          {planStateName(user.account)} <ArrowRightIcon />
        </Link>
      </header>

      {swapped && (
        <Alert
          kind="success"
          onDismiss={() => {
            params.delete('userSwapped');
            setParams(params, { replace: true });
          }}
        >
          Successfully swapped main user.
        </Alert>
      )}
      <SlackProblemAlert />
      {alert && (
        <Alert kind={alert.kind} title={alert.kind === 'error' ? 'Error' : undefined} onDismiss={() => setAlert(null)}>
          {alert.text}
        </Alert>
      )}
      {banners.map((banner) => (
        <Alert key={banner.id} kind={banner.kind} title={banner.title}>
          {banner.text}{' '}
          {banner.link && (
            <Link to={banner.link.to} className="banner-link">
              {banner.link.label} →
            </Link>
          )}
        </Alert>
      ))}
      {user.showNPSRating && <RatingPrompt />}
      {statsFailed && <p className="muted stats-note">Conversation statistics could not be loaded right now.</p>}

      {stats === null && !statsFailed ? (
        <PageLoader label="Loading your widgets…" />
      ) : (
        <div className="teams">
          {teams.length === 0 && (
            <div className="card empty-state">
              <h2>No widgets yet</h2>
              <p className="muted">Add Parley to a Slack team and choose a channel: your first widget is ready in a minute.</p>
            </div>
          )}
          {teams.map((team) => (
            <TeamSection
              key={team.key || 'unlinked'}
              team={team}
              adding={adding}
              canDelete={(ce) => canDeleteUnfinished(ce, widgets)}
              onChangeMainUser={() => changeMainUser(team)}
              onDelete={deleteUnfinished}
              onAddChannel={() =>
                team.anchor && isConfigured(team.anchor)
                  ? addWidget(team.key, team.anchor.Id)
                  : setAlert({ kind: 'error', text: NEW_WIDGET_ERROR })
              }
            />
          ))}
          <div className="new-team">
            <Button variant="secondary" onClick={() => addWidget('new-team')} busy={adding === 'new-team'} disabled={adding !== null}>
              <SlackMark size={18} />
              Add a channel to a new Slack Team
            </Button>
            {atLimit && !unlinked && (
              <span className="muted">
                Your {plan.label} plan includes {plan.maxChannels} {plan.maxChannels === 1 ? 'channel' : 'channels'}.
              </span>
            )}
          </div>
        </div>
      )}
      {confirm.dialog}
    </div>
  );
}

function TeamSection({
  team,
  adding,
  canDelete,
  onChangeMainUser,
  onDelete,
  onAddChannel,
}: {
  team: TeamGroup;
  adding: string | null;
  canDelete: (ce: DashboardWidget) => boolean;
  onChangeMainUser: () => void;
  onDelete: (ce: DashboardWidget) => void;
  onAddChannel: () => void;
}) {
  return (
    <section className="team" aria-label={team.connected ? `Slack team ${team.name}` : 'Widgets not connected to Slack'}>
      <header className="team__head">
        {team.connected ? (
          <>
            <span className="team__avatar" aria-hidden="true">
              {team.name.slice(0, 1).toUpperCase()}
            </span>
            <div className="team__text">
              <h2 className="team__name">{team.name}</h2>
              <p className="team__user">
                <UserIcon />
                <span>
                  Main Slack user: <strong>{team.mainUser || 'not set'}</strong>
                </span>{' '}
                <button type="button" className="link-button" onClick={onChangeMainUser} disabled={!team.anchor}>
                  (change)
                </button>
              </p>
            </div>
          </>
        ) : (
          <div className="team__text">
            <h2 className="team__name">{team.widgets.length === 1 ? 'Unfinished widget' : 'Unfinished widgets'}</h2>
            <p className="team__user muted">
              Finish setup to link {team.widgets.length === 1 ? 'this widget' : 'these widgets'} to a Slack channel.
            </p>
          </div>
        )}
      </header>
      <ul className="widget-grid">
        {team.widgets.map((ce) => (
          <li key={ce.Id}>
            <WidgetCard ce={ce} canDelete={canDelete(ce)} onDelete={() => onDelete(ce)} />
          </li>
        ))}
        {team.connected && (
          <li>
            <button
              type="button"
              className="add-card"
              onClick={onAddChannel}
              disabled={adding !== null}
              aria-busy={adding === team.key || undefined}
            >
              <span className="add-card__icon">{adding === team.key ? <span className="spinner" aria-hidden="true" /> : <PlusIcon />}</span>
              <span className="add-card__label">Add new channel</span>
              <span className="add-card__text muted">Another widget answered in {team.name}</span>
            </button>
          </li>
        )}
      </ul>
    </section>
  );
}

function WidgetCard({ ce, canDelete, onDelete }: { ce: DashboardWidget; canDelete: boolean; onDelete: () => void }) {
  const online = isWidgetOnline(ce);
  const configured = isConfigured(ce);
  const name = configured ? `#${channelName(ce)}` : ce.RoomName ? `#${channelName(ce)}` : 'New widget';
  const stats = ce.chatStats;
  return (
    <article className={`card widget-card${configured ? '' : ' widget-card--unfinished'}`} data-widget-id={ce.Id}>
      <div className="widget-card__head">
        <span
          className={`status-dot${online ? ' status-dot--online' : ''}`}
          role="img"
          aria-label={online ? 'Online' : 'Offline'}
          title={online ? 'Online' : 'Offline'}
        />
        <h3 className="widget-card__name">
          <Link to={`/settings/${ce.Id}/behavior`}>{name}</Link>
        </h3>
        <Link to={`/settings/${ce.Id}/behavior`} className="icon-btn" aria-label={`Settings of ${name}`}>
          <SettingsIcon />
        </Link>
      </div>
      {configured ? (
        stats ? (
          <>
            <dl className="widget-card__stats">
              <div>
                <dt>Today / 30 days</dt>
                <dd>
                  {stats.last24h}/{stats.total}
                </dd>
              </div>
              <div>
                <dt>Average per day</dt>
                <dd>{formatAverage(stats.avg30d)}</dd>
              </div>
            </dl>
            {stats.total > 0 ? (
              <Sparkline days={sparklineDays(stats)} label={`Conversations per day over the last 30 days, ${stats.total} in all`} />
            ) : (
              <p className="widget-card__empty muted">No conversations in the last 30 days yet.</p>
            )}
          </>
        ) : (
          <p className="muted">Statistics are not available.</p>
        )
      ) : (
        <div className="widget-card__setup">
          <p className="muted">
            {stepOf(ce) === 1 ? 'Not connected to Slack yet.' : 'Slack is connected: choose a channel.'} Step {stepOf(ce)} of 3.
          </p>
          <div className="widget-card__actions">
            <ButtonLink to={`/setup/${ce.Id}`} className="btn--small">
              Finish setup
            </ButtonLink>
            {canDelete && (
              <Button variant="ghost" className="btn--small btn--ghost-danger" onClick={onDelete}>
                <TrashIcon />
                Delete
              </Button>
            )}
          </div>
        </div>
      )}
    </article>
  );
}
