/** Account Info (admins): organisation, invoice e-mail, billing address and tax ID, saved to Parley and Stripe. */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { AccountInfoPayload } from '../../../../server/shared';
import { messageOf } from '../../api';
import { updateAccountInfo } from '../../api/account';
import { Alert, Button, TextField } from '../../components/ui';
import { useSession, useUser } from '../../session/session';

/** After a save the button says Saved for 1.5 s (spec section 4, "Button feedback"). */
const SAVED_MS = 1500;

const FIELDS: { key: keyof AccountInfoPayload; label: string; autoComplete: string; type?: string; maxLength?: number }[] = [
  { key: 'orgName', label: 'Organisation name', autoComplete: 'organization' },
  { key: 'email', label: 'Invoice e-mail', autoComplete: 'email', type: 'email' },
  { key: 'billingAddressLine1', label: 'Billing address', autoComplete: 'address-line1' },
  { key: 'billingCity', label: 'City', autoComplete: 'address-level2' },
  { key: 'billingState', label: 'State or region', autoComplete: 'address-level1' },
  { key: 'billingPostalCode', label: 'Postal code', autoComplete: 'postal-code', maxLength: 20 },
  { key: 'billingCountry', label: 'Country code (US, DE …)', autoComplete: 'country', maxLength: 2 },
  { key: 'taxID', label: 'Tax ID', autoComplete: 'off', maxLength: 40 },
];

function infoOf(account: AccountInfoPayload): AccountInfoPayload {
  return Object.fromEntries(FIELDS.map(({ key }) => [key, account[key]])) as AccountInfoPayload;
}

export function AccountInfoSection() {
  const { account } = useUser();
  const { reload } = useSession();
  const [form, setForm] = useState<AccountInfoPayload>(() => infoOf(account));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const timers = useRef<number[]>([]);

  useEffect(() => () => timers.current.forEach((timer) => window.clearTimeout(timer)), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await updateAccountInfo(account.Id, form);
      const fresh = await reload();
      setForm(infoOf(fresh.account));
      setSaved(true);
      timers.current.push(window.setTimeout(() => setSaved(false), SAVED_MS));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card account-section" aria-labelledby="info-title">
      <h2 id="info-title">Account Info</h2>
      {error && (
        <Alert kind="error" title="Error" onDismiss={() => setError(null)}>
          {error}
        </Alert>
      )}
      <form className="account-info" onSubmit={submit} noValidate>
        {FIELDS.map(({ key, label, autoComplete, type, maxLength }) => (
          <TextField
            key={key}
            label={label}
            type={type ?? 'text'}
            autoComplete={autoComplete}
            value={form[key]}
            maxLength={maxLength ?? 200}
            onChange={(event) => setForm({ ...form, [key]: event.target.value })}
          />
        ))}
        <div className="account-info__actions">
          <Button type="submit" busy={busy}>
            {saved ? 'Saved' : 'Save account info'}
          </Button>
        </div>
      </form>
    </section>
  );
}
