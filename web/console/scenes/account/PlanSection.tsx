/** Plan tiles with the Monthly / Annually toggle, the plan buttons of spec section 4, and the cancel link. */
import { useState } from 'react';
import { monthlyPrice, PLAN_DURATIONS, type PlanDuration, type PlanView, yearlyListMonthlyPrice } from '../../../../server/shared';
import { ApiError, messageOf } from '../../api';
import { checkoutUrl, portalUrl } from '../../api/account';
import { upgradePlan } from '../../api/widgets';
import { useConfirm } from '../../components/ConfirmDialog';
import { CheckIcon } from '../../components/icons';
import { SegmentedTabs } from '../../components/SegmentedTabs';
import { Alert, Button } from '../../components/ui';
import { formatCents, PLAN_UPDATED, planErrorText, SWITCH_CONFIRMATION } from '../../lib/billingTexts';
import { useSession, useUser } from '../../session/session';
import { lostSinceTrial, onTrialPlan, switchedOffText, trialPlanText } from '../dashboard/dashboardRules';
import { daysUntil, formatDate, type PlanButton, planButton, planLimits, plansFor, subscriptionEnded } from './accountRules';

const FEATURE_LABELS: [keyof PlanView, string][] = [
  ['savedReplies', 'Saved replies'],
  ['reports', 'Reports'],
  ['triggers', 'Triggers'],
  ['bots', 'Bots and integrations'],
  ['questionGroups', 'Question groups'],
  ['whiteLabel', 'White label'],
  ['phoneSupport', 'Phone support'],
];

export function PlanSection() {
  const user = useUser();
  const { reload } = useSession();
  const { account } = user;
  const current = account.plan;
  const [duration, setDuration] = useState<PlanDuration>(current.duration);
  const [busy, setBusy] = useState<string | null>(null);
  // A refused card (402) shows Stripe's reason with a way to update the card; any other failure the spec's text.
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string; updateCard?: boolean } | null>(null);
  const confirm = useConfirm();

  const goTo = async (stripeId: string, open: () => Promise<string>) => {
    setBusy(stripeId);
    setNotice(null);
    try {
      window.location.assign(await open());
    } catch (err) {
      setBusy(null);
      setNotice({ kind: 'error', text: messageOf(err) });
    }
  };

  const choose = (plan: PlanView, button: PlanButton) => {
    if (button.kind === 'checkout') {
      void goTo(plan.stripeId, () => checkoutUrl(account.Id, plan.stripeId));
      return;
    }
    confirm.ask({
      title: `Switch to ${plan.label} ${plan.duration === 'yearly' ? '(annual)' : '(monthly)'}?`,
      body: (
        <>
          <p>{SWITCH_CONFIRMATION}</p>
          {plan.price !== null && (
            <p>
              New price: <strong>{formatCents(plan.price)}</strong> {plan.duration === 'yearly' ? 'per year' : 'per month'}
              {account.firstChargeAt
                ? `, first charged on ${formatDate(account.firstChargeAt)} when your trial ends.`
                : subscribed
                  ? ', prorated against what you already paid.'
                  : ', charged today.'}
            </p>
          )}
        </>
      ),
      confirmLabel: button.label,
      action: async () => {
        try {
          await upgradePlan(account.Id, plan.stripeId);
          await reload();
          setNotice({ kind: 'success', text: PLAN_UPDATED });
        } catch (err) {
          const refused = err instanceof ApiError && err.status === 402;
          setNotice({
            kind: 'error',
            text: refused ? `${messageOf(err)} Your plan was not changed.` : planErrorText(),
            updateCard: refused,
          });
          setDuration(current.duration);
        }
        confirm.close();
      },
    });
  };

  const tiles = plansFor(account.availablePlans, duration);
  const cancelPending = account.cancelAt !== null && Date.parse(account.cancelAt) > Date.now();
  const subscribed = account.paymentType !== 'none' && account.canceledAt === null;

  return (
    <section className="card account-section" aria-labelledby="plans-title">
      <div className="account-section__head">
        <h2 id="plans-title">Plan</h2>
        <SegmentedTabs
          values={PLAN_DURATIONS}
          value={duration}
          onChange={setDuration}
          labelOf={(value) => (value === 'monthly' ? 'Monthly' : 'Annually')}
          label={{ text: 'Billing period' }}
        />
      </div>
      {notice && (
        <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>
          {notice.text}
          {notice.updateCard && (
            <>
              {' '}
              <button type="button" className="link-button" onClick={() => goTo('card', () => portalUrl(account.Id, 'home', user.Id))}>
                Update your card
              </button>
            </>
          )}
        </Alert>
      )}
      {cancelPending && account.cancelAt && (
        <Alert kind="warning">
          Your subscription was canceled and ends in {daysUntil(account.cancelAt)} days, on {formatDate(account.cancelAt)}.{' '}
          {user.admin && (
            <button type="button" className="link-button" onClick={() => goTo('renew', () => portalUrl(account.Id, 'home', user.Id))}>
              Renew subscription
            </button>
          )}
        </Alert>
      )}
      {onTrialPlan(account) && <Alert kind="info">{trialPlanText(account)}</Alert>}
      {lostSinceTrial(account) && <Alert kind="info">{switchedOffText(account)}</Alert>}
      <div className="plan-tiles">
        {tiles.map((plan) => {
          const button = planButton(plan, current, account);
          const price = monthlyPrice(plan);
          const isCurrent = plan.stripeId === current.stripeId && !subscriptionEnded(account);
          return (
            <article key={plan.stripeId} className={`plan-tile${isCurrent ? ' plan-tile--current' : ''}`} aria-label={`${plan.label} plan`}>
              <h3 className="plan-tile__name">{plan.label}</h3>
              <p className="plan-tile__price">
                {price === null ? (
                  <span className="plan-tile__custom">Custom pricing</span>
                ) : (
                  <>
                    {plan.duration === 'yearly' && <s className="plan-tile__list">{`$${yearlyListMonthlyPrice(plan)}`}</s>}
                    {`$${price}`}
                    <span className="muted"> / month</span>
                  </>
                )}
              </p>
              {plan.duration === 'yearly' && plan.price !== null && (
                <p className="plan-tile__note muted">{formatCents(plan.price)} billed yearly, one month free</p>
              )}
              <ul className="check-list plan-tile__features">
                {[...planLimits(plan), ...FEATURE_LABELS.filter(([flag]) => plan[flag] === true).map(([, label]) => label)].map((line) => (
                  <li key={line}>
                    <CheckIcon />
                    {line}
                  </li>
                ))}
              </ul>
              {button &&
                (button.disabled || !user.admin ? (
                  <Button variant="secondary" disabled block>
                    {isCurrent ? 'Current plan' : button.label}
                  </Button>
                ) : (
                  <Button
                    variant={button.label === 'Downgrade' ? 'secondary' : 'primary'}
                    block
                    busy={busy === plan.stripeId}
                    disabled={busy !== null}
                    onClick={() => choose(plan, button)}
                  >
                    {button.label}
                  </Button>
                ))}
              {price === null && (
                <a href="#/support" className="btn btn--secondary btn--block">
                  Contact us!
                </a>
              )}
            </article>
          );
        })}
      </div>
      {!user.admin && <p className="muted">Only an admin of your account can change the plan.</p>}
      {user.admin && subscribed && !cancelPending && (
        <p className="account-cancel">
          <button
            type="button"
            className="link-button link-button--danger"
            onClick={() => goTo('cancel', () => portalUrl(account.Id, 'subscription_cancel', user.Id))}
            disabled={busy !== null}
          >
            Cancel subscription
          </button>
        </p>
      )}
      {confirm.dialog}
    </section>
  );
}
