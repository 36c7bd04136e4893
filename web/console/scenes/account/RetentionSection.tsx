/**
 * Data retention (admins): conversations older than a number of days are deleted by a daily job, with their
 * messages, files and report facts. Off by default; the rule (30 to 3650 days) is the API's own.
 */
import { type FormEvent, useState } from 'react';
import { RETENTION_DAYS, RETENTION_MESSAGES, RetentionDaysSchema } from '../../../../server/shared/retention';
import { updateRetention } from '../../api/account';
import { Alert, Button, TextField } from '../../components/ui';
import { useSession, useUser } from '../../session/session';
import { useSectionSave } from './useSectionSave';

const SUGGESTED_DAYS = 365;

export function RetentionSection() {
  const { account } = useUser();
  const { reload } = useSession();
  const [on, setOn] = useState(account.retentionDays !== null);
  const [days, setDays] = useState(String(account.retentionDays ?? SUGGESTED_DAYS));
  const [fieldError, setFieldError] = useState<string | null>(null);
  const { busy, saved, error, clearError, run } = useSectionSave();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = RetentionDaysSchema.safeParse(on ? Number(days.trim() === '' ? Number.NaN : days) : null);
    if (!parsed.success) {
      setFieldError(RETENTION_MESSAGES.range);
      return;
    }
    setFieldError(null);
    await run(async () => {
      await updateRetention(account.Id, parsed.data);
      await reload();
    });
  };

  return (
    <section className="card account-section" aria-labelledby="retention-title">
      <h2 id="retention-title">Data retention</h2>
      <p className="muted">
        Delete conversations, with their messages, files and report data, once they are older than the number of days you choose. A daily
        job removes them; Slack threads stay in your Slack. Reports then start at that age. Your monthly conversation count is not affected.
      </p>
      {error && (
        <Alert kind="error" title="Error" onDismiss={clearError}>
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
