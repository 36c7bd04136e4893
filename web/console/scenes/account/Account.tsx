/**
 * #/account ('Manage your account'): plan tiles, Billing Info, Plan Usage, Recent Invoices for every user;
 * Account Info and the team sections (users, API keys, GDPR export) for admins only.
 */
import { useSearchParams } from 'react-router-dom';
import { Alert, PageHeader, useDocumentTitle } from '../../components/ui';
import { useUser } from '../../session/session';
import { trialDaysLeft, trialMessage } from '../dashboard/dashboardRules';
import { AccountInfoSection } from './AccountInfoSection';
import { accountState, statusText } from './accountRules';
import { BillingInfoSection } from './BillingInfoSection';
import { InvoicesSection } from './InvoicesSection';
import { PlanSection } from './PlanSection';
import { UsageSection } from './UsageSection';

export const BILLING_ADDED = 'You have successfully added your billing information.';

export function Account() {
  useDocumentTitle('Manage your account');
  const user = useUser();
  const { account } = user;
  const [params, setParams] = useSearchParams();
  const state = accountState(account);
  const trialDays = state === 'trialing' || state === 'trial_expired' ? trialDaysLeft(account) : null;

  const dismissSuccess = () => {
    params.delete('success');
    setParams(params, { replace: true });
  };

  return (
    <div className="account">
      <PageHeader title="Manage your account">
        <span className={`account-status account-status--${account.delinquent ? 'delinquent' : state}`}>
          {account.plan.label} plan · {state === 'trialing' ? 'free trial' : statusText(account)}
        </span>
      </PageHeader>

      {params.get('success') === 'true' && (
        <Alert kind="success" onDismiss={dismissSuccess}>
          {BILLING_ADDED}
        </Alert>
      )}
      {account.quota.isOverquota && (
        <Alert kind="error" title="Over quota">
          You are overquota: {account.quota.reason}. Time to upgrade your plan!
        </Alert>
      )}
      {account.delinquent && (
        <Alert kind="error">You account is delinquent. Please update your credit card now.</Alert>
      )}
      {trialDays !== null && <p className="account-trial">{trialMessage(trialDays)}</p>}

      <PlanSection />
      <div className="account-grid">
        <BillingInfoSection />
        <UsageSection />
      </div>
      <InvoicesSection />
      {user.admin && <AccountInfoSection />}
      {/* Admins also manage users, API keys and the GDPR export here (UsersSection, ApiKeysSection, GdprSection). */}
    </div>
  );
}
