/**
 * Setup step 3: the widget is connected. The embed code to copy, the channel (rename, change), links to the
 * settings, docs and dashboard, and deleting the widget (permanent, so it says so twice).
 */
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { ChatEndpointView } from '../../../../server/shared';
import { messageOf, UNKNOWN_ERROR } from '../../api';
import { changeChannel, deleteWidget, renameChannel } from '../../api/widgets';
import { useConfirm } from '../../components/ConfirmDialog';
import { EmbedCode } from '../../components/EmbedCode';
import { ArrowRightIcon, BookIcon, CheckIcon, HomeIcon } from '../../components/icons';
import { HashIcon, PaletteIcon, TrashIcon } from '../../components/moreIcons';
import { Alert, Button } from '../../components/ui';
import { type DashboardNotice, WIDGET_DELETED } from '../../lib/slackProblems';
import { useSession } from '../../session/session';
import { CHANNEL_NAME_HINT, isValidChannelName, normaliseChannelInput } from './channelName';

/**
 * `inSettings`: shown as the settings' Embed Code tab, so without the setup's finish header and settings link;
 * `children` follow the embed code there (the verified identity card).
 */
export function EmbedStep({ ce, inSettings = false, children }: { ce: ChatEndpointView; inSettings?: boolean; children?: ReactNode }) {
  const { reload } = useSession();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [error, setError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState(false);
  const channel = ce.RoomName.replace(/^#/, '');

  const askChangeChannel = () =>
    confirm.ask({
      title: 'Change the channel?',
      body: (
        <p>
          New conversations will go to the channel you choose next instead of <strong>#{channel}</strong>. The widget is offline until you
          pick one.
        </p>
      ),
      confirmLabel: 'Change channel',
      action: async () => {
        confirm.close();
        setError(null);
        try {
          await changeChannel(ce.Id);
          await reload();
        } catch {
          setError(UNKNOWN_ERROR);
        }
      },
    });

  const askDelete = () =>
    confirm.ask({
      title: 'Delete this widget permanently?',
      body: (
        <>
          <p>
            First remove the embed code with widget id <code className="inline-code">{ce.Uuid}</code> from your sites: once deleted, the
            widget stops working there.
          </p>
          <p>Its settings and conversation statistics are deleted for good. This cannot be undone.</p>
        </>
      ),
      confirmLabel: 'Delete permanently',
      danger: true,
      action: async () => {
        await deleteWidget(ce.Id);
        confirm.close();
        // Leave this page first: once the session forgets the widget, its setup URL is unknown (a 404).
        await navigate('/', { replace: true, state: { notice: WIDGET_DELETED } satisfies DashboardNotice });
        await reload();
      },
    });

  return (
    <div className="embed-page">
      {!inSettings && (
        <header className="finished">
          <span className="finished__badge" aria-hidden="true">
            <CheckIcon />
          </span>
          <div>
            <h1 className="finished__title">Setup is finished!</h1>
            <p className="finished__next">Last step: copy and paste embed code</p>
            <p className="muted">Put this code on your site and visitors can chat with your team in Slack.</p>
          </div>
        </header>
      )}

      {error && (
        <Alert kind="error" title="Error" onDismiss={() => setError(null)}>
          {error}
        </Alert>
      )}

      <section className="card connected" aria-label="Connected Slack channel">
        <span className="connected__icon">
          <HashIcon />
        </span>
        {renaming ? (
          <RenameForm
            ce={ce}
            onDone={() => setRenaming(false)}
            onError={(message) => {
              setError(message);
            }}
          />
        ) : (
          <>
            <div className="connected__text">
              <span className="connected__label">Conversations go to</span>
              <strong className="connected__name">#{channel}</strong>
              {ce.slackTeamName && <span className="muted"> in {ce.slackTeamName}</span>}
              <span className="connected__tip">
                Invite your teammates to #{channel} in Slack: you are online while one of them is active.
              </span>
            </div>
            <div className="connected__actions">
              <Button variant="ghost" className="btn--small" onClick={() => setRenaming(true)}>
                Rename
              </Button>
              <Button variant="secondary" className="btn--small" onClick={askChangeChannel}>
                Change channel
              </Button>
            </div>
          </>
        )}
      </section>

      <section className="card" aria-labelledby="embed-title">
        <h2 id="embed-title" className="card__title">
          Embed code
        </h2>
        <EmbedCode widgetUuid={ce.Uuid} />
      </section>
      {children}

      <nav className="next-steps" aria-label="What to do next">
        {!inSettings && (
          <Link to={`/settings/${ce.Id}/behavior`} className="card card--link next-step">
            <PaletteIcon />
            <strong>Configure look and behavior</strong>
            <span className="muted">Colours, texts, operating hours and what happens when you are away.</span>
            <span className="next-step__go">
              Open settings <ArrowRightIcon />
            </span>
          </Link>
        )}
        <a href="/docs" className="card card--link next-step">
          <BookIcon />
          <strong>Read the docs</strong>
          <span className="muted">The JavaScript API, identifying visitors, and answering from Slack.</span>
          <span className="next-step__go">
            Open the docs <ArrowRightIcon />
          </span>
        </a>
        <Link to="/" className="card card--link next-step">
          <HomeIcon />
          <strong>Go to the dashboard</strong>
          <span className="muted">See every widget, its status and today's conversations.</span>
          <span className="next-step__go">
            Dashboard <ArrowRightIcon />
          </span>
        </Link>
      </nav>

      <section className="danger-zone" aria-labelledby="danger-title">
        <div>
          <h2 id="danger-title">Delete this widget</h2>
          <p className="muted">Deleting is permanent: the widget stops working on every site that embeds it.</p>
        </div>
        <Button variant="danger" onClick={askDelete}>
          <TrashIcon />
          Delete widget
        </Button>
      </section>
      {confirm.dialog}
    </div>
  );
}

function RenameForm({ ce, onDone, onError }: { ce: ChatEndpointView; onDone: () => void; onError: (message: string) => void }) {
  const { reload } = useSession();
  const [name, setName] = useState(ce.RoomName.replace(/^#/, ''));
  const [busy, setBusy] = useState(false);
  const valid = isValidChannelName(name);
  const input = useRef<HTMLInputElement>(null);

  // The form opens when the owner presses Rename: focus follows into the field they asked for.
  useEffect(() => input.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    setBusy(true);
    try {
      await renameChannel(ce.Id, name);
      await reload();
      onDone();
    } catch (err) {
      onError(messageOf(err));
      setBusy(false);
    }
  };

  return (
    <form className="rename-form" onSubmit={submit} noValidate>
      <label className="sr-only" htmlFor="rename-channel">
        New channel name
      </label>
      <div className="hash-input">
        <span className="hash-input__hash" aria-hidden="true">
          #
        </span>
        <input
          id="rename-channel"
          className="field__input"
          value={name}
          ref={input}
          spellCheck={false}
          aria-invalid={!valid || undefined}
          onChange={(event) => setName(normaliseChannelInput(event.target.value))}
        />
      </div>
      <Button type="submit" className="btn--small" disabled={!valid} busy={busy}>
        Save
      </Button>
      <Button variant="ghost" className="btn--small" onClick={onDone} disabled={busy}>
        Cancel
      </Button>
      {name !== '' && !valid && <p className="field__error rename-form__hint">{CHANNEL_NAME_HINT}</p>}
    </form>
  );
}
