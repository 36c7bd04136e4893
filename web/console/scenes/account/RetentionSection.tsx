/**
 * Data retention (admins): conversations older than a number of days are deleted by a daily job, with their
 * messages, files and report facts. Off by default; the rule (30 to 3650 days) is the API's own.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { RETENTION_DAYS, RETENTION_MESSAGES, RetentionDaysSchema } from '../../../../server/shared/retention';
import { messageOf } from '../../api';
import { updateRetention } from '../../api/account';
import { Alert, Button, TextField } from '../../components/ui';
import { useSession, useUser } from '../../session/session';

const SAVED_MS = 1500;
const SUGGESTED_DAYS = 365;

export function RetentionSection() {
  const { account } = useUser();
  const { reload } = useSession();
  const [on, setOn] = useState(account.retentionDays !== null);
  const [days, setDays] = useState(String(account.retentionDays ?? SUGGESTED_DAYS));
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((timer) => window.clearTimeout(timer)), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = RetentionDaysSchema.safeParse(on ? Number(days.trim() === '' ? Number.NaN : days) : null);
    if (!parsed.success) {
      setFieldError(RETENTION_MESSAGES.range);
      return;
    }
    setFieldError(null);
    setError(null);
    setBusy(true);
    try {
      await updateRetention(account.Id, parsed.data);
      await reload();
      setSaved(true);
      timers.current.push(window.setTimeout(() => setSaved(false), SAVED_MS));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card account-section" aria-labelledby="retention-title">
      <h2 id="retention-title">Data retention</h2>
      <p className="muted">
        Delete conversations, with their messages, files and report data, once they are older than the number of days you choose. A daily
        job removes them; Slack threads stay in your Slack. Reports then start at that age. Your monthly conversation count is not affected.
      </p>
      {error && (
        <Alert kind="error" title="Error" onDismiss={() => setError(null)}>
          {error}
        </Alert>
      )}
      <form className="retention" onSubmit={submit} noValidate>
        <label className="checkbox">
          <input type="checkbox" checked={on} onChange={(event) => setOn(event.target.checked)} /> Delete old conversations
        </label>
        {on && (
          <TextField
            label="Keep conversations for (days)"
            type="number"
            inputMode="numeric"
            min={RETENTION_DAYS.min}
            max={RETENTION_DAYS.max}
            value={days}
            error={fieldError}
            hint={`From ${RETENTION_DAYS.min} to ${RETENTION_DAYS.max} days.`}
            onChange={(event) => {
              setDays(event.target.value);
              setFieldError(null);
            }}
          />
        )}
        <div>
          <Button type="submit" busy={busy}>
            {saved ? 'Saved' : 'Save data retention'}
          </Button>
        </div>
      </form>
    </section>
  );
}
