/** Billing Info: the card on file; admins add or update it through Stripe (Checkout or the payment portal). */
import { useState } from 'react';
import { messageOf } from '../../api';
import { checkoutUrl, portalUrl } from '../../api/account';
import { Alert, Button } from '../../components/ui';
import { useUser } from '../../session/session';
import { formatDate, hasCard } from './accountRules';

export const CONTACT_ADMIN = 'Contact an admin on your account to add a payment method';

export function BillingInfoSection() {
  const user = useUser();
  const { account } = user;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const card = hasCard(account) && account.last4 !== '';

  const open = async () => {
    setBusy(true);
    setError(null);
    try {
      // With a card on file the portal updates it; without one, Checkout saves one (during the trial) or subscribes to the current plan.
      const url = card ? await portalUrl(account.Id, 'home', user.Id) : await checkoutUrl(account.Id, account.plan.stripeId);
      window.location.assign(url);
    } catch (err) {
      setBusy(false);
      setError(messageOf(err));
    }
  };

  return (
    <section className="card account-section" aria-labelledby="billing-title">
      <h2 id="billing-title">Billing Info</h2>
      {error && (
        <Alert kind="error" title="Error" onDismiss={() => setError(null)}>
          {error}
        </Alert>
      )}
      {card ? (
        <dl className="card-on-file">
          <dt>Card</dt>
          <dd>
            <span className="card-brand">{account.brand || 'Card'}</span> •••• {account.last4}
          </dd>
          <dt>Expires</dt>
          <dd>
            {account.expMonth !== null && account.expYear !== null
              ? `${String(account.expMonth).padStart(2, '0')}/${account.expYear}`
              : '—'}
          </dd>
        </dl>
      ) : (
        <p className="muted">No payment method on file.</p>
      )}
      {account.state === 'trialing' && account.trialEndAt && (
        <p className="muted" id="billing-trial-note">
          A card added now is saved, not charged before {formatDate(account.trialEndAt)}.
        </p>
      )}
      {account.firstChargeAt && (
        <p className="muted" id="billing-trial-note">
          First charge on {formatDate(account.firstChargeAt)}, when your trial ends.
        </p>
      )}
      {user.admin ? (
        <Button variant={card ? 'secondary' : 'primary'} onClick={open} busy={busy}>
          {card ? 'Update credit card' : 'Add payment method'}
        </Button>
      ) : (
        !card && <p>{CONTACT_ADMIN}</p>
      )}
    </section>
  );
}
