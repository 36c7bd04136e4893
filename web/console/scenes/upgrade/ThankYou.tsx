/** #/thank-you-for-upgrading: confirms the new plan and links to the dashboard and account settings. */
import { CheckIcon } from '../../components/icons';
import { ButtonLink, useDocumentTitle } from '../../components/ui';
import { useUser } from '../../session/session';
import { formatDate } from '../account/accountRules';

export function ThankYou() {
  const user = useUser();
  useDocumentTitle('Thank you for upgrading');
  return (
    <section className="card thanks" aria-labelledby="thanks-title">
      <span className="finished__badge finished__badge--large" aria-hidden="true">
        <CheckIcon />
      </span>
      <h1 id="thanks-title" className="thanks__title">
        Thank you for upgrading!
      </h1>
      <p>
        You are now on the <strong>{user.account.plan.label}</strong> plan.
      </p>
      {user.account.firstChargeAt && (
        <p className="muted">Your card is saved: its first charge is on {formatDate(user.account.firstChargeAt)}, when your trial ends.</p>
      )}
      <div className="thanks__actions">
        <ButtonLink to="/">Go to the dashboard</ButtonLink>
        <ButtonLink to="/account" variant="secondary">
          Account settings
        </ButtonLink>
      </div>
    </section>
  );
}
