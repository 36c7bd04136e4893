/** The history report: per room, a paged table of chats with hover details, the transcript of a chat, downloads. */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ChatEndpointView } from '../../../../server/shared';
import {
  type ChatRecord,
  DOWNLOAD_CHAT_LIMIT,
  HISTORY_PAGE_SIZE,
  HISTORY_STATE_LABELS,
  type HistoryFilters,
  type HistoryState,
  shortPageUrl,
  type Transcript,
} from '../../../../server/shared/reports';
import { SEARCH_QUERY_MAX } from '../../../../server/shared/searchTerms';
import { downloadReport, fetchChats, fetchTranscript, filterParams } from '../../api/reports';
import { Dialog } from '../../components/Dialog';
import { Button } from '../../components/ui';
import { MessageBody } from './MessageBody';
import { EachRoom, RoomHead, useReport } from './parts';
import { formatTime, showingLine } from './reportRules';

export function HistoryReportView({ rooms, tz }: { rooms: ChatEndpointView[]; tz: string }) {
  return <EachRoom rooms={rooms} card={(room) => <RoomHistory room={room} tz={tz} />} />;
}

function RoomHistory({ room, tz }: { room: ChatEndpointView; tz: string }) {
  const [page, setPage] = useState(0);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState('');
  const [state, setState] = useState<HistoryState | ''>('');
  const [open, setOpen] = useState<ChatRecord | null>(null);
  // A tag chosen once stays choosable after the widget's list dropped it: the chats still carry it.
  const tags = room.tags ?? [];
  const filters = useMemo<HistoryFilters>(() => ({ ...(tag ? { tag } : {}), ...(state ? { state } : {}) }), [tag, state]);
  // The search runs once typing pauses, from its first page.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setPage(0);
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const { data, loading } = useReport(
    useCallback(() => fetchChats(room.Id, page, HISTORY_PAGE_SIZE, search, filters), [room.Id, page, search, filters]),
  );

  const chats = data?.chats ?? [];
  const total = data?.totalChats ?? 0;
  const searchId = `history-search-${room.Id}`;
  const filtered = search !== '' || tag !== '' || state !== '';
  return (
    <section className="card reports__room" aria-label={`History of ${room.RoomName}`}>
      {/* The console's buttons fetch the newest chats, page 0 (spec section 7); the server streams any number. */}
      {/* The downloads hold the chats of the tag and state chosen below (the search is the table's alone). */}
      <RoomHead
        room={room}
        download={(format) => downloadReport(room, 'chats', format, { limit: DOWNLOAD_CHAT_LIMIT, ...filterParams(filters) })}
      />
      <div className="reports__filters">
        <div className="reports__search">
          <label className="field__label" htmlFor={searchId}>
            Search chats
          </label>
          <input
            id={searchId}
            type="search"
            className="field__input"
            placeholder="Name, e-mail or words in the chat"
            maxLength={SEARCH_QUERY_MAX}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        <div className="reports__filter">
          <label className="field__label" htmlFor={`history-tag-${room.Id}`}>
            Tag
          </label>
          <select
            id={`history-tag-${room.Id}`}
            className="field__input"
            value={tag}
            disabled={tags.length === 0 && tag === ''}
            onChange={(e) => {
              setTag(e.target.value);
              setPage(0);
            }}
          >
            <option value="">{tags.length === 0 && tag === '' ? 'No tags yet' : 'Any tag'}</option>
            {[...tags, ...(tag && !tags.includes(tag) ? [tag] : [])].map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div className="reports__filter">
          <label className="field__label" htmlFor={`history-state-${room.Id}`}>
            State
          </label>
          <select
            id={`history-state-${room.Id}`}
            className="field__input"
            value={state}
            onChange={(e) => {
              setState(e.target.value as HistoryState | '');
              setPage(0);
            }}
          >
            <option value="">Any state</option>
            {(Object.keys(HISTORY_STATE_LABELS) as HistoryState[]).map((s) => (
              <option key={s} value={s}>
                {HISTORY_STATE_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {!loading && chats.length === 0 ? (
        // Without rows the table is only headings, wider than a phone: a sentence instead of an empty scroller.
        <p className="reports__muted reports__none">
          {search
            ? `No chats match “${search}”${tag || state ? ' with these filters' : ''}.`
            : filtered
              ? 'No chats match these filters.'
              : 'No chats yet.'}
        </p>
      ) : (
        <div className="reports__history-wrap" aria-busy={loading || undefined}>
          <table className="reports__table reports__history">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Visitor</th>
                <th scope="col">Agent</th>
                <th scope="col">Rating</th>
                <th scope="col">Feedback</th>
                <th scope="col">
                  <span className="sr-only">Transcript</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {chats.map((c) => (
                <tr
                  key={c.id}
                  tabIndex={0}
                  className="reports__row"
                  aria-label={`Chat #${c.number} with ${c.visitor.label}: open its transcript`}
                  onClick={() => setOpen(c)}
                  onKeyDown={(e) => e.key === 'Enter' && setOpen(c)}
                >
                  <td className="reports__started">
                    <time dateTime={c.startedAt}>{formatTime(c.startedAt, tz)}</time>
                    <ChatDetails chat={c} tz={tz} />
                  </td>
                  <td className="reports__visitor">
                    <span className="reports__who">
                      <span className="reports__number">#{c.number}</span> {c.visitor.label}
                      {c.visitor.identity && (
                        <span
                          className={`reports__identity reports__identity--${c.visitor.identity}`}
                          title={
                            c.visitor.identity === 'verified'
                              ? 'Your site proved this identity with a valid userHash.'
                              : 'Your site passed this identity without a valid userHash: anyone could have claimed it.'
                          }
                        >
                          {c.visitor.identity === 'verified' ? 'Verified' : 'Unverified'}
                        </span>
                      )}
                    </span>
                    {c.firstLine && <span className="reports__first-line">{c.firstLine}</span>}
                    {c.tags.length > 0 && (
                      <span className="reports__tags">
                        <span className="sr-only">Tags: </span>
                        {c.tags.map((t) => (
                          <span key={t} className="reports__tag">
                            {t}
                          </span>
                        ))}
                      </span>
                    )}
                  </td>
                  <td className="reports__agent">{c.agentName || <span className="reports__muted">Missed</span>}</td>
                  <td className="reports__rating-cell">
                    {c.chatRating && (
                      <span className={`reports__rating reports__rating--${c.chatRating}`}>{c.chatRating === 'up' ? 'Up' : 'Down'}</span>
                    )}
                  </td>
                  <td className="reports__feedback">{c.chatFeedback}</td>
                  <td className="reports__open">
                    <span aria-hidden="true">Transcript ›</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="reports__pager">
        <span>{showingLine(page, HISTORY_PAGE_SIZE, chats.length, total)}</span>
        <span className="reports__pager-buttons">
          <Button variant="secondary" disabled={page === 0 || loading} onClick={() => setPage((p) => p - 1)}>
            Previous
          </Button>
          <Button variant="secondary" disabled={(page + 1) * HISTORY_PAGE_SIZE >= total || loading} onClick={() => setPage((p) => p + 1)}>
            Next
          </Button>
        </span>
      </div>
      <TranscriptDialog ceId={room.Id} chat={open} tz={tz} onClose={() => setOpen(null)} />
    </section>
  );
}

/** How long typing pauses before the search runs. */
const SEARCH_PAUSE_MS = 300;

/** Hover details of a row: Started, Ended, First seen, Page, ID and identity traits. */
function ChatDetails({ chat, tz }: { chat: ChatRecord; tz: string }) {
  const v = chat.visitor;
  let traits: [string, unknown][] = [];
  try {
    traits = v.identTraits ? Object.entries(JSON.parse(v.identTraits) as Record<string, unknown>) : [];
  } catch {
    traits = [];
  }
  return (
    <div role="tooltip" className="reports__details">
      <dl className="reports__details-list">
        <dt>Started</dt>
        <dd>{formatTime(chat.startedAt, tz)}</dd>
        <dt>Ended</dt>
        <dd>{chat.endedAt ? formatTime(chat.endedAt, tz) : 'Still open'}</dd>
        <dt>First seen</dt>
        <dd>{formatTime(v.createdAt, tz)}</dd>
        <dt>Page</dt>
        <dd>{shortPageUrl(v.currentPage) || '—'}</dd>
        <dt>ID</dt>
        <dd>{chat.id}</dd>
        {v.identUserId && (
          <>
            <dt>User ID</dt>
            <dd>{v.identUserId}</dd>
          </>
        )}
        {traits.map(([k, value]) => (
          <div key={k} className="reports__trait">
            <dt>{k}</dt>
            <dd>{String(value)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function TranscriptDialog({ ceId, chat, tz, onClose }: { ceId: string; chat: ChatRecord | null; tz: string; onClose: () => void }) {
  const [transcript, setTranscript] = useState<Transcript | null>(null);
  useEffect(() => {
    setTranscript(null);
    if (!chat) return;
    let live = true;
    fetchTranscript(ceId, chat.id)
      .then((t) => live && setTranscript(t))
      .catch((err: unknown) => console.error('transcript failed', err));
    return () => {
      live = false;
    };
  }, [ceId, chat]);

  return (
    <Dialog open={chat !== null} title={chat ? `${chat.title} · ${chat.visitor.label}` : ''} onClose={onClose}>
      {chat && (
        <div className="reports__transcript">
          <p className="reports__muted">
            {formatTime(chat.startedAt, tz)} · {chat.agentName ? `answered by ${chat.agentName}` : 'nobody answered'} ·{' '}
            <a href={chat.channelUrl} target="_blank" rel="noreferrer">
              Open in Slack
            </a>
          </p>
          {!transcript ? (
            <span className="spinner" aria-hidden="true" />
          ) : (
            <ol className="reports__messages">
              {transcript.messages.map((m) => (
                <li key={m.id} className={`reports__message reports__message--${m.from}`}>
                  <span className="reports__message-meta">
                    {m.author} · {formatTime(m.at, tz)}
                    {m.edited ? ' · edited' : ''}
                  </span>
                  {m.deleted ? <em>deleted</em> : <MessageBody text={m.text} html={m.html} files={m.files} />}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </Dialog>
  );
}
