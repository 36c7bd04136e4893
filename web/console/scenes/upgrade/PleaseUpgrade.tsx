/** #/please-upgrade ('Time to upgrade?'): a new channel would exceed the plan; compare with the next plan. */
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { monthlyPrice, nextPlan, type PlanView } from '../../../../server/shared';
import { messageOf } from '../../api';
import { upgradePlan } from '../../api/widgets';
import { ArrowRightIcon, CheckIcon } from '../../components/icons';
import { Alert, Button, ButtonLink, useDocumentTitle } from '../../components/ui';
import { useSession, useUser } from '../../session/session';


export function PleaseUpgrade() {
  const user = useUser();
  const { reload } = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  useDocumentTitle('Time to upgrade?');
  const [error, setError] = useState<string | null>(null);
  const current = user.account.plan;
  const next = nextPlan(current, user.account.availablePlans, user.ces.length);
  const custom = next.price === null;

  const upgrade = async () => {
    setBusy(true);
    setError(null);
    try {
      await upgradePlan(user.account.Id, next.stripeId);
      await reload();
      navigate('/thank-you-for-upgrading');
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };

  return (
    <div className="upgrade">
      <header className="upgrade__head">
        <h1 className="upgrade__title">Time to upgrade?</h1>
        <p className="muted">
          Your {current.label} plan includes {channels(current.maxChannels)} and you are using {user.ces.length}. Move
          to the {next.label} plan to add another channel.
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
        ) : (
          <Button onClick={upgrade} busy={busy}>
            Yes, I want to upgrade
          </Button>
        )}
        <Link to="/" className="upgrade__later">
          Not now, back to the dashboard
        </Link>
      </div>
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
