/** Account Info (admins): organisation, invoice e-mail, billing address and tax ID, saved to Parley and Stripe. */
import { type FormEvent, useState } from 'react';
import type { AccountInfoPayload } from '../../../../server/shared';
import { updateAccountInfo } from '../../api/account';
import { Alert, Button, TextField } from '../../components/ui';
import { useSession, useUser } from '../../session/session';
import { useSectionSave } from './useSectionSave';

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
  const { busy, saved, error, clearError, run } = useSectionSave();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await run(async () => {
      await updateAccountInfo(account.Id, form);
      const fresh = await reload();
      setForm(infoOf(fresh.account));
    });
  };

  return (
    <section className="card account-section" aria-labelledby="info-title">
      <h2 id="info-title">Account Info</h2>
      {error && (
        <Alert kind="error" title="Error" onDismiss={clearError}>
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
