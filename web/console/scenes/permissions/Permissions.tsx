/**
 * #/permissions and #/permissions/{ceId}: the Slack scopes a widget needs against those granted, computed on the
 * server from the stored installation (spec "Slack permissions"), with the ways to approve what is missing.
 */
import { useEffect, useState } from 'react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router-dom';
import type { ChatEndpointView } from '../../../../server/shared';
import { messageOf } from '../../api';
import { getPermissions, type PermissionsView, type SlackScopeRef } from '../../api/widgets';
import { useConfirm } from '../../components/ConfirmDialog';
import { NotFoundRedirect, useCurrentCe } from '../../components/guards';
import { ExternalIcon, ShieldIcon, SlackMark } from '../../components/moreIcons';
import { Alert, Button, PageHeader, PageLoader, useDocumentTitle } from '../../components/ui';
import { firstChatEndpoint, isConfigured } from '../../lib/rules';
import { useUser } from '../../session/session';

/** What each scope lets Parley do, in the words a site owner reads. */
const SCOPE_PURPOSE: Record<string, string> = {
  commands: 'The /parley command in your channels',
  'channels:history': 'Read replies in visitor threads to relay them',
  'users:read': 'Show operator names and avatars to visitors',
  'users:read.email': 'Match operators to their e-mail addresses',
  'files:read': 'Send files your team shares in a thread to the visitor',
  'files:write': 'Upload files visitors send into the thread',
  'chat:write': 'Post visitor messages in the channel',
  'chat:write.customize': 'Post with the visitor’s name and avatar',
  'channels:manage': 'Create and rename the widget’s channel',
  'channels:read': 'List the channels you can pick from',
  'channels:join': 'Join the channel you pick',
  'channels:write': 'Create channels as the main Slack user',
};

export function Permissions() {
  const { ceId } = useParams();
  const user = useUser();
  const chosen = useCurrentCe(ceId);
  useDocumentTitle('Slack permissions');
  // Without an id: the first configured widget, so the page shows scopes rather than sending to setup;
  // the lowest Id when none is configured.
  const ce = ceId === undefined ? (firstChatEndpoint(user.ces.filter(isConfigured)) ?? chosen) : chosen;
  if (ceId !== undefined && !ce) return <NotFoundRedirect />;
  if (!ce) return <Navigate to="/" replace />;
  return <PermissionsFor key={ce.Id} ce={ce} />;
}

function PermissionsFor({ ce }: { ce: ChatEndpointView }) {
  const user = useUser();
  const [params] = useSearchParams();
  const confirm = useConfirm();
  const [view, setView] = useState<PermissionsView | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const queryError = params.get('error');

  useEffect(() => {
    let live = true;
    getPermissions(ce.Id)
      .then((answer) => live && setView(answer))
      .catch((err: unknown) => live && setFailed(messageOf(err)));
    return () => {
      live = false;
    };
  }, [ce.Id]);

  if (failed) {
    return (
      <>
        <PageHeader title="Slack permissions" />
        <Alert kind="error" title="Error">
          {failed}
        </Alert>
      </>
    );
  }
  if (!view) return <PageLoader label="Checking Slack permissions…" />;
  if (Number(view.step) < 3 || !view.mainUserSet) return <Navigate to={`/setup/${ce.Id}`} replace />;

  const goTo = (url: string) => {
    window.location.href = url;
  };
  const migrate = () =>
    confirm.ask({
      title: 'Upgrade the Slack integration?',
      body: (
        <>
          <p>Parley moves this widget from Slack’s legacy authorisation to the current one.</p>
          <p>
            Slack asks you to approve Parley again: sign in as{' '}
            <strong>{ce.slackMainUserName || 'the Slack user you signed up with'}</strong>. Your channel, settings and conversations stay as
            they are.
          </p>
        </>
      ),
      confirmLabel: 'Continue to Slack',
      action: async () => goTo(view.upgradeUrl),
    });

  const bot = view.scopes.filter((s) => s.type === 'bot');
  const userScopes = view.scopes.filter((s) => s.type === 'user');
  const configured = user.ces.filter(isConfigured);

  return (
    <div className="permissions">
      <PageHeader title="Slack permissions">
        {configured.length > 1 && (
          <nav className="widget-switch" aria-label="Widgets">
            {configured.map((other) => (
              <Link
                key={other.Id}
                to={`/permissions/${other.Id}`}
                className={`widget-switch__item${other.Id === ce.Id ? ' widget-switch__item--active' : ''}`}
                aria-current={other.Id === ce.Id ? 'page' : undefined}
              >
                #{other.RoomName.replace(/^#/, '')}
              </Link>
            ))}
          </nav>
        )}
      </PageHeader>

      {queryError && (
        <Alert kind="error" title="Error">
          {queryError === 'wrong_user'
            ? 'A different Slack user than the one you used to sign up was authenticated in Slack, so the permissions were not updated. Please contact support.'
            : 'An unknown problem occurred while updating your Slack permissions. Please try again or contact support.'}
        </Alert>
      )}

      {view.oauthV1 && (
        <section className="important" aria-labelledby="important-title">
          <h2 id="important-title">IMPORTANT</h2>
          <p>
            This widget still uses Slack’s legacy authorisation, which Slack retired on 31 March 2025. Upgrade the Slack integration so
            visitors keep reaching your team.
          </p>
          <Button variant="dark" onClick={migrate} disabled={!view.upgradeUrl}>
            <SlackMark size={18} />
            Upgrade Slack integration
          </Button>
        </section>
      )}

      <Alert kind="info" title="Read this first">
        Approve the permissions with the same Slack user and Slack account you used to sign up for Parley
        {ce.slackMainUserName ? (
          <>
            {' '}
            (<strong>{ce.slackMainUserName}</strong>
            {ce.slackTeamName ? <> in {ce.slackTeamName}</> : null})
          </>
        ) : null}
        . Approving as someone else is refused.
      </Alert>

      {view.allGood ? (
        <Alert kind="success" title="Woot!">
          Parley has every Slack permission it needs for #{ce.RoomName.replace(/^#/, '')}. Nothing to do here.
        </Alert>
      ) : null}

      <section className="card scopes-card" aria-labelledby="scopes-title">
        <div className="scopes-card__head">
          <span className="scopes-card__icon">
            <ShieldIcon />
          </span>
          <div>
            <h2 id="scopes-title">What Parley needs for #{ce.RoomName.replace(/^#/, '')}</h2>
            <p className="muted">
              {view.missing.length === 0
                ? 'Every permission is approved.'
                : `${view.missing.length} of ${view.scopes.length} ${view.scopes.length === 1 ? 'permission needs' : 'permissions need'} your approval.`}
            </p>
          </div>
          {view.missing.length > 0 && !view.oauthV1 && (
            <Button className="scopes-card__cta" onClick={() => goTo(view.upgradeUrl)} disabled={!view.upgradeUrl}>
              <SlackMark size={18} />
              Upgrade permissions
            </Button>
          )}
        </div>
        <ScopeList title="Bot permissions" scopes={bot} />
        <ScopeList title="User permissions" scopes={userScopes} />
      </section>

      {view.missing.length > 1 && view.selective.length > 0 && (
        <section className="card selective" aria-labelledby="selective-title">
          <h2 id="selective-title">Approve one at a time</h2>
          <p className="muted">
            If Slack refuses the whole set (an admin may have to approve some permissions), approve the missing ones separately.
          </p>
          <SelectiveLinks title="Bot permissions" links={view.selective.filter((s) => s.type === 'bot')} />
          <SelectiveLinks title="User permissions" links={view.selective.filter((s) => s.type === 'user')} />
        </section>
      )}
      {confirm.dialog}
    </div>
  );
}

function ScopeList({ title, scopes }: { title: string; scopes: (SlackScopeRef & { granted: boolean })[] }) {
  if (scopes.length === 0) return null;
  return (
    <div className="scope-group">
      <h3 className="scope-group__title">{title}</h3>
      <ul className="scope-list">
        {scopes.map((s) => (
          <li key={`${s.type}:${s.scope}`} className="scope" data-scope={s.scope} data-granted={s.granted}>
            <span className="scope__text">
              <code className="scope__name">{s.scope}</code>
              {SCOPE_PURPOSE[s.scope] && <span className="scope__purpose muted">{SCOPE_PURPOSE[s.scope]}</span>}
            </span>
            <span className={`badge ${s.granted ? 'badge--ok' : 'badge--needed'}`}>
              {s.granted ? 'All good!' : 'Your approval needed!'}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function SelectiveLinks({ title, links }: { title: string; links: (SlackScopeRef & { url: string })[] }) {
  if (links.length === 0) return null;
  return (
    <div className="scope-group">
      <h3 className="scope-group__title">{title}</h3>
      <ul className="selective__links">
        {links.map((link) => (
          <li key={`${link.type}:${link.scope}`}>
            <a href={link.url} className="selective__link">
              Approve <code>{link.scope}</code> <ExternalIcon />
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
