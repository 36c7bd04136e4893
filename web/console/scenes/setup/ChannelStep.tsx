/**
 * Setup step 2 (progress 67%): create a new Slack channel or pick an existing one; either connects the widget
 * and moves it to step 3. 'delete and start over?' removes the widget.
 */
import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ChatEndpointView, SlackRoom } from '../../../../server/shared';
import { messageOf } from '../../api';
import { connectChannel, createChannel, deleteWidget, listRooms } from '../../api/widgets';
import { useConfirm } from '../../components/ConfirmDialog';
import { PlusIcon } from '../../components/icons';
import { HashIcon, RefreshIcon } from '../../components/moreIcons';
import { Alert, Button } from '../../components/ui';
import { decodeEntities } from '../../lib/entities';
import { type DashboardNotice, WIDGET_DELETED } from '../../lib/slackProblems';
import { useSession } from '../../session/session';
import { CHANNEL_NAME_HINT, CHANNEL_NAME_RULE, isHiddenRoom, isValidChannelName, normaliseChannelInput } from './channelName';

/** Above this many channels the list gets a filter box. */
const FILTER_FROM = 8;
const ROOMS_ERROR = 'Cannot fetch Slack channels';

export function ChannelStep({ ce }: { ce: ChatEndpointView }) {
  const { reload } = useSession();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [connecting, setConnecting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** Connects and reloads the user: the widget, now at step 3, shows the embed page. */
  const connect = useCallback(
    async (room: { Id: string; Name: string }) => {
      setConnecting(room.Id);
      setError(null);
      try {
        await connectChannel(ce, room);
        await reload();
      } catch (err) {
        setError(messageOf(err));
        setConnecting(null);
      }
    },
    [ce, reload],
  );

  const startOver = () =>
    confirm.ask({
      title: 'Delete this widget?',
      body: <p>This widget is not connected to a channel yet. Deleting it lets you start over from the dashboard.</p>,
      confirmLabel: 'Delete widget',
      danger: true,
      action: async () => {
        await deleteWidget(ce.Id);
        confirm.close();
        // Leave the setup page first: once the session forgets the widget, its setup URL is unknown.
        await navigate('/', { replace: true, state: { notice: WIDGET_DELETED } satisfies DashboardNotice });
        await reload();
      },
    });

  return (
    <section className="setup-channel" aria-labelledby="step2-title">
      <header className="setup-channel__head">
        <h1 id="step2-title" className="setup-card__title">
          Choose the Slack channel for this widget
        </h1>
        <p className="muted">
          Visitor conversations appear as threads in this channel{ce.slackTeamName ? ` of ${ce.slackTeamName}` : ''}. A new, dedicated
          channel keeps them apart from team chatter.
        </p>
      </header>
      {error && (
        <Alert kind="error" title="Error" onDismiss={() => setError(null)}>
          {error}
        </Alert>
      )}
      <div className="setup-channel__grid">
        <CreateChannel ce={ce} busy={connecting !== null} onCreated={connect} onError={setError} />
        <PickChannel busy={connecting} ceId={ce.Id} onPick={connect} />
      </div>
      <p className="setup-channel__footer">
        <button type="button" className="link-button link-button--danger" onClick={startOver}>
          delete and start over?
        </button>
      </p>
      {confirm.dialog}
    </section>
  );
}

function CreateChannel({
  ce,
  busy,
  onCreated,
  onError,
}: {
  ce: ChatEndpointView;
  busy: boolean;
  onCreated: (room: { Id: string; Name: string }) => Promise<void>;
  onError: (message: string | null) => void;
}) {
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);
  const valid = isValidChannelName(name);
  const showHint = name !== '' && !valid;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || creating) return;
    setCreating(true);
    onError(null);
    try {
      const room = await createChannel(ce.Id, name);
      await onCreated(room);
    } catch (err) {
      onError(messageOf(err));
    } finally {
      setCreating(false);
    }
  };

  return (
    <form className="card channel-panel" onSubmit={submit} noValidate aria-labelledby="create-channel-title">
      <div className="channel-panel__badge">Recommended</div>
      <h2 id="create-channel-title">Create a new channel</h2>
      <p className="muted">Parley creates it in Slack and joins it.</p>
      <div className={`field${showHint ? ' field--invalid' : ''}`}>
        <label className="field__label" htmlFor="new-channel-name">
          Channel name
        </label>
        <div className="hash-input">
          <span className="hash-input__hash" aria-hidden="true">
            #
          </span>
          <input
            id="new-channel-name"
            className="field__input"
            value={name}
            placeholder="website-chat"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={showHint || undefined}
            aria-describedby="new-channel-hint"
            onChange={(event) => setName(normaliseChannelInput(event.target.value))}
          />
        </div>
        <p className={showHint ? 'field__error' : 'field__hint'} id="new-channel-hint">
          {showHint ? CHANNEL_NAME_HINT : CHANNEL_NAME_RULE}
        </p>
      </div>
      <Button type="submit" disabled={!valid || busy} busy={creating}>
        <PlusIcon />
        Create channel
      </Button>
    </form>
  );
}

function PickChannel({ ceId, busy, onPick }: { ceId: string; busy: string | null; onPick: (room: SlackRoom) => Promise<void> }) {
  const [rooms, setRooms] = useState<SlackRoom[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [filter, setFilter] = useState('');

  const load = useCallback(async () => {
    setLoading(true);
    setFailed(false);
    try {
      setRooms((await listRooms(ceId)).filter((room) => !isHiddenRoom(room.Name)));
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, [ceId]);

  useEffect(() => {
    void load();
  }, [load]);

  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase().replace(/^#/, '');
    const sorted = [...(rooms ?? [])].sort((a, b) => a.Name.localeCompare(b.Name));
    return needle ? sorted.filter((room) => room.Name.toLowerCase().includes(needle)) : sorted;
  }, [rooms, filter]);

  return (
    <section className="card channel-panel" aria-labelledby="pick-channel-title">
      <div className="channel-panel__top">
        <h2 id="pick-channel-title">Use an existing channel</h2>
        <Button variant="ghost" className="btn--small" onClick={load} disabled={loading} aria-label="Refresh the channel list">
          <span className={loading ? 'spin' : undefined}>
            <RefreshIcon />
          </span>
          Refresh
        </Button>
      </div>
      {failed ? (
        <Alert kind="error">{ROOMS_ERROR}</Alert>
      ) : rooms === null ? (
        <div className="room-list room-list--loading" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <div key={i} className="skeleton skeleton--row" />
          ))}
        </div>
      ) : rooms.length === 0 ? (
        <p className="muted">No public channels to pick from yet. Create one on the left.</p>
      ) : (
        <>
          {rooms.length > FILTER_FROM && (
            <input
              className="field__input room-filter"
              type="search"
              placeholder="Filter channels"
              aria-label="Filter channels"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
            />
          )}
          <ul className="room-list" aria-label="Slack channels">
            {shown.map((room) => (
              <li key={room.Id} className="room">
                <span className="room__icon">
                  <HashIcon />
                </span>
                <span className="room__text">
                  <span className="room__name">{room.Name}</span>
                  {room.Topic && <span className="room__topic">{decodeEntities(room.Topic)}</span>}
                </span>
                <Button
                  variant="secondary"
                  className="btn--small"
                  onClick={() => onPick(room)}
                  disabled={busy !== null}
                  busy={busy === room.Id}
                  aria-label={`Connect #${room.Name}`}
                >
                  Connect
                </Button>
              </li>
            ))}
            {shown.length === 0 && <li className="muted room-list__none">No channel matches “{filter}”.</li>}
          </ul>
        </>
      )}
    </section>
  );
}
