/**
 * #/account ('Manage your account'), for admins only (the route's AdminOnly guard tells others so): plan tiles,
 * Billing Info, Plan Usage, Recent Invoices, Account Info and the team sections (users, API keys, GDPR export).
 */
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CHECKOUT_NOT_COMPLETED } from '../../../../server/shared';
import { Alert, PageHeader, useDocumentTitle } from '../../components/ui';
import { useUser } from '../../session/session';
import { bannersFor, planStateName } from '../dashboard/dashboardRules';
import { AccountInfoSection } from './AccountInfoSection';
import { ApiKeysSection } from './ApiKeysSection';
import { statusText } from './accountRules';
import { BillingInfoSection } from './BillingInfoSection';
import { GdprSection } from './GdprSection';
import { InvoicesSection } from './InvoicesSection';
import { PhoneSupport } from './PhoneSupport';
import { PlanSection } from './PlanSection';
import { RetentionSection } from './RetentionSection';
import { UsageSection } from './UsageSection';
import { UsersSection } from './UsersSection';

export const BILLING_ADDED = 'You have successfully added your billing information.';
/** After Checkout's return for a session Stripe does not have, or that was not paid. */
export const CHECKOUT_NOT_COMPLETED_TEXT = 'That checkout was not completed. Nothing was charged.';

/** The account's banners, minus the pending cancellation (the plan section shows it with its renew link). */
const ACCOUNT_BANNERS = new Set(['overquota', 'delinquent', 'billing-address', 'trial', 'canceled']);

export function Account() {
  useDocumentTitle('Manage your account');
  const user = useUser();
  const { account } = user;
  const [params, setParams] = useSearchParams();
  const banners = useMemo(() => bannersFor(user, []).filter((banner) => ACCOUNT_BANNERS.has(banner.id)), [user]);

  const dismiss = (name: 'success' | 'checkout') => {
    params.delete(name);
    setParams(params, { replace: true });
  };

  return (
    <div className="account">
      <PageHeader title="Manage your account">
        <span className={`account-status account-status--${account.delinquent ? 'delinquent' : account.state}`}>
          {account.state === 'trialing' || account.firstChargeAt
            ? planStateName(account)
            : `${planStateName(account)} · ${statusText(account)}`}
        </span>
      </PageHeader>

      {params.get('success') === 'true' && (
        <Alert kind="success" onDismiss={() => dismiss('success')}>
          {BILLING_ADDED}
        </Alert>
      )}
      {params.get('checkout') === CHECKOUT_NOT_COMPLETED && (
        <Alert kind="warning" onDismiss={() => dismiss('checkout')}>
          {CHECKOUT_NOT_COMPLETED_TEXT}
        </Alert>
      )}
      {banners.map((banner) => (
        <Alert key={banner.id} kind={banner.kind} title={banner.title}>
          {banner.text}
        </Alert>
      ))}

      <PlanSection />
      <PhoneSupport plan={account.plan.label} />
      <div className="account-grid">
        <BillingInfoSection />
        <UsageSection />
      </div>
      <InvoicesSection />
      {user.admin && <AccountInfoSection />}
      {user.admin && (
        <>
          <UsersSection />
          <ApiKeysSection />
          <GdprSection />
          <RetentionSection />
        </>
      )}
    </div>
  );
}
