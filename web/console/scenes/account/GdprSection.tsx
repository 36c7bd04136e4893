/**
 * GDPR (admins): the export of everything Parley holds for the account, with its progress while it builds and
 * its link (GDPRExportSignedURL, shown when longer than 6 characters); and the erasure of one visitor.
 */
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { GDPR_LINK_MIN_LENGTH, type GdprErasureView, type GdprExportView, TEAM_MESSAGES } from '../../../../server/shared/teamMessages';
import { messageOf } from '../../api';
import { eraseVisitor, latestGdprExport, listErasures, requestGdprExport } from '../../api/team';
import { useConfirm } from '../../components/ConfirmDialog';
import { Alert, Button, TextField } from '../../components/ui';
import { useSession, useUser } from '../../session/session';

const POLL_MS = 1000;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '');

export function GdprSection() {
  const { account } = useUser();
  const { reload } = useSession();
  const [job, setJob] = useState<GdprExportView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  const poll = useCallback(async () => {
    window.clearTimeout(timer.current);
    try {
      const latest = await latestGdprExport();
      setJob(latest);
      if (latest?.status === 'running') timer.current = window.setTimeout(() => void poll(), POLL_MS);
      else if (latest?.status === 'ready') await reload();
    } catch (err) {
      setError(messageOf(err));
    }
  }, [reload]);
  useEffect(() => {
    void poll();
    return () => window.clearTimeout(timer.current);
  }, [poll]);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      setJob(await requestGdprExport());
      timer.current = window.setTimeout(() => void poll(), POLL_MS);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const link = account.GDPRExportSignedURL;
  const running = job?.status === 'running';
  const percent = job && job.total > 0 ? Math.min(100, Math.round((job.done / job.total) * 100)) : 0;

  return (
    <section className="card account-section" aria-labelledby="gdpr-title">
      <h2 id="gdpr-title">GDPR</h2>
      <div className="gdpr-block">
        <h3>Export your data</h3>
        <p className="muted">
          One archive of everything Parley holds for this account: account, users (without passwords), widgets and settings, conversations,
          messages, visitors and uploaded files’ details, as JSON lines. We e-mail you when it is ready; the link works for 24 hours.
        </p>
        {error && (
          <Alert kind="error" title="Error" onDismiss={() => setError(null)}>
            {error}
          </Alert>
        )}
        {running && job && (
          <div className="gdpr-progress" role="status">
            <div className="usage__track" aria-hidden="true">
              <div className="usage__bar" style={{ width: `${percent}%` }} />
            </div>
            <span>
              Building the export… {percent}% ({job.done.toLocaleString()} of {job.total.toLocaleString()} records)
            </span>
          </div>
        )}
        {job?.status === 'failed' && !running && (
          <Alert kind="warning">The last export did not finish or has expired. Request a new one.</Alert>
        )}
        {link.length > GDPR_LINK_MIN_LENGTH && !running && (
          <p className="gdpr-link">
            <a className="btn btn--secondary" href={link} download>
              Download export
            </a>
            {job?.expiresAt && <span className="muted"> Link expires {when(job.expiresAt)}.</span>}
          </p>
        )}
        <div>
          <Button onClick={() => void start()} busy={busy} disabled={running}>
            {running ? 'Export in progress' : 'Request export'}
          </Button>
        </div>
      </div>
      <ErasureBlock />
    </section>
  );
}

function ErasureBlock() {
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [records, setRecords] = useState<GdprErasureView[]>([]);
  const { ask, close, dialog } = useConfirm();

  const load = useCallback(async () => {
    try {
      setRecords(await listErasures());
    } catch (err) {
      console.error('Could not load erasures', err);
    }
  }, []);
  useEffect(() => void load(), [load]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const who = query.trim();
    if (!who) {
      setResult({ kind: 'error', text: TEAM_MESSAGES.erasureQuery });
      return;
    }
    ask({
      title: 'Erase this visitor?',
      body: (
        <>
          <p>
            Parley deletes every message, the identity and the files of <strong>{who}</strong>, for good. Conversations stay only as
            anonymous counts.
          </p>
          <p>The Slack threads stay as Slack holds them: delete them in Slack if they must go too.</p>
        </>
      ),
      confirmLabel: 'Erase visitor',
      danger: true,
      action: async () => {
        const erased = await eraseVisitor(who);
        close();
        setQuery('');
        setResult({
          kind: 'success',
          text: `Erased: ${erased.visitors} visitor record(s), ${erased.conversations} conversation(s) emptied, ${erased.messages} message(s), ${erased.files} file(s), ${erased.offlineMessages} offline message(s).`,
        });
        await load();
      },
    });
  };

  return (
    <div className="gdpr-block">
      <h3>Erase a visitor</h3>
      <p className="muted">
        When a visitor asks to be forgotten: their messages’ text, identity and files are removed from Parley and the erasure is recorded.
        Slack threads stay as Slack holds them.
      </p>
      {result && (
        <Alert kind={result.kind} onDismiss={() => setResult(null)}>
          {result.text}
        </Alert>
      )}
      <form className="team-invite" onSubmit={submit} noValidate>
        <TextField
          label="Visitor e-mail or visitor id"
          name="erase-visitor"
          autoComplete="off"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            // A complaint about the last try is stale once the visitor is typed anew; a success note stays.
            setResult((r) => (r?.kind === 'error' ? null : r));
          }}
        />
        <Button type="submit" variant="danger">
          Erase visitor
        </Button>
      </form>
      {records.length > 0 && (
        <ul className="gdpr-records" aria-label="Erasures">
          {records.map((r) => (
            <li key={r.Id}>
              {when(r.createdAt)} · by {r.requestedByEmail} · {r.by === 'email' ? 'by e-mail' : 'by visitor id'} · {r.messages} message(s),{' '}
              {r.files} file(s)
            </li>
          ))}
        </ul>
      )}
      {dialog}
    </div>
  );
}
