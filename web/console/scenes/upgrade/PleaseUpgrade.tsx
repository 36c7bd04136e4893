/** #/please-upgrade ('Time to upgrade?'): a new channel would exceed the plan; compare with the next plan. */
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { monthlyPrice, nextPlan, type PlanView } from '../../../../server/shared';
import { messageOf } from '../../api';
import { checkoutUrl } from '../../api/account';
import { upgradePlan } from '../../api/widgets';
import { useConfirm } from '../../components/ConfirmDialog';
import { ArrowRightIcon, CheckIcon } from '../../components/icons';
import { Alert, Button, ButtonLink, useDocumentTitle } from '../../components/ui';
import { formatCents, SWITCH_CONFIRMATION } from '../../lib/billingTexts';
import { useSession, useUser } from '../../session/session';
import { formatDate } from '../account/accountRules';

export function PleaseUpgrade() {
  const user = useUser();
  const { reload } = useSession();
  const navigate = useNavigate();
  const confirm = useConfirm();
  useDocumentTitle('Time to upgrade?');
  const [error, setError] = useState<string | null>(null);
  const { account } = user;
  const current = account.plan;
  const next = nextPlan(current, account.availablePlans, user.ces.length);
  const custom = next.price === null;
  // Without a card the trial just moves to the bigger plan; once it is over, the bigger plan is paid for in Checkout.
  const throughCheckout = account.paymentType === 'none' && account.state !== 'trialing';

  const charge =
    next.price === null
      ? null
      : account.firstChargeAt
        ? `${formatCents(next.price)} ${next.duration === 'yearly' ? 'a year' : 'a month'}, first charged to your card on ${formatDate(account.firstChargeAt)}, when your trial ends.`
        : account.paymentType !== 'none'
          ? `You will be charged ${formatCents(next.price)} ${next.duration === 'yearly' ? 'a year' : 'a month'}, starting with the prorated difference today.`
          : throughCheckout
            ? `${formatCents(next.price)} ${next.duration === 'yearly' ? 'a year' : 'a month'}: you will add your card on the next page.`
            : `${formatCents(next.price)} ${next.duration === 'yearly' ? 'a year' : 'a month'} once you add a card; nothing is charged during your trial.`;

  const upgrade = () =>
    confirm.ask({
      title: `Upgrade to ${next.label}?`,
      body: (
        <>
          <p>{SWITCH_CONFIRMATION}</p>
          {charge && <p>{charge}</p>}
        </>
      ),
      confirmLabel: `Upgrade to ${next.label}`,
      action: async () => {
        try {
          if (throughCheckout) {
            window.location.assign(await checkoutUrl(account.Id, next.stripeId));
            return;
          }
          await upgradePlan(account.Id, next.stripeId);
          await reload();
          confirm.close();
          await navigate('/thank-you-for-upgrading');
        } catch (err) {
          confirm.close();
          setError(messageOf(err));
        }
      },
    });

  return (
    <div className="upgrade">
      <header className="upgrade__head">
        <h1 className="upgrade__title">Time to upgrade?</h1>
        <p className="muted">
          Your {current.label} plan includes {channels(current.maxChannels)} and you are using {user.ces.length}. Move to the {next.label}{' '}
          plan to add another channel.
        </p>
      </header>
      {error && (
        <Alert kind="error" title="Error" onDismiss={() => setError(null)}>
          {error}
        </Alert>
      )}
      <div className="plan-compare">
        <PlanCard plan={current} tag="Your plan" />
        <span className="plan-compare__arrow" aria-hidden="true">
          <ArrowRightIcon />
        </span>
        <PlanCard plan={next} tag="Next plan" highlight />
      </div>
      <div className="upgrade__actions">
        {custom ? (
          <ButtonLink to="/support">Contact us!</ButtonLink>
        ) : user.admin ? (
          <Button onClick={upgrade}>Yes, I want to upgrade</Button>
        ) : (
          <p className="muted">Ask an admin of your account to upgrade the plan.</p>
        )}
        <Link to="/" className="upgrade__later">
          Not now, back to the dashboard
        </Link>
      </div>
      {confirm.dialog}
    </div>
  );
}

function channels(count: number): string {
  return `${count} ${count === 1 ? 'channel' : 'channels'}`;
}

function PlanCard({ plan, tag, highlight }: { plan: PlanView; tag: string; highlight?: boolean }) {
  const price = monthlyPrice(plan);
  const features = [
    plan.maxOperators === 0 ? 'Unlimited operators' : `${plan.maxOperators} ${plan.maxOperators === 1 ? 'operator' : 'operators'}`,
    channels(plan.maxChannels),
    `${plan.convosPerMonth.toLocaleString()} conversations per month`,
    ...(plan.reports ? ['Reports'] : []),
    ...(plan.triggers ? ['Triggers'] : []),
    ...(plan.whiteLabel ? ['White label'] : []),
  ];
  return (
    <article className={`card plan-card${highlight ? ' plan-card--next' : ''}`} aria-label={`${tag}: ${plan.label}`}>
      <span className="plan-card__tag">{tag}</span>
      <h2 className="plan-card__name">{plan.label}</h2>
      <p className="plan-card__price">
        {price === null ? (
          'Contact us!'
        ) : (
          <>
            ${price}
            <span className="muted"> / month{plan.duration === 'yearly' ? ', billed yearly' : ''}</span>
          </>
        )}
      </p>
      <ul className="check-list">
        {features.map((feature) => (
          <li key={feature}>
            <CheckIcon />
            {feature}
          </li>
        ))}
      </ul>
    </article>
  );
}
