/**
 * #/setup/{ceId}: where the widget stands in its three setup steps. The steps' actions (Slack authorisation,
 * channel choice, embed code) come with the Slack integration, which replaces this screen.
 */
import { useParams } from 'react-router-dom';
import { NotFoundRedirect, useCurrentCe } from '../../components/guards';
import { CheckIcon } from '../../components/icons';
import { ButtonLink, PageHeader } from '../../components/ui';
import { stepOf } from '../../lib/rules';

const STEPS = ['Add Parley to Slack', 'Choose a Slack channel', 'Install the widget on your site'];

export function Setup() {
  const { ceId } = useParams();
  const ce = useCurrentCe(ceId);
  if (!ce) return <NotFoundRedirect />;
  const step = stepOf(ce);
  const progress = step === 1 ? 33 : step === 2 ? 67 : 100;

  return (
    <>
      <PageHeader title="Set up your widget" />
      <section className="card setup">
        <div
          className="progress"
          role="progressbar"
          aria-label="Setup progress"
          aria-valuenow={progress}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="progress__bar" style={{ width: `${progress}%` }} />
        </div>
        <ol className="steps">
          {STEPS.map((label, index) => {
            const number = index + 1;
            const state = number < step ? 'done' : number === step ? 'current' : 'todo';
            return (
              <li key={label} className={`steps__item steps__item--${state}`} aria-current={state === 'current' ? 'step' : undefined}>
                <span className="steps__marker">{state === 'done' ? <CheckIcon /> : number}</span>
                <span>{label}</span>
              </li>
            );
          })}
        </ol>
        <p>
          This widget is at <strong>step {step} of 3</strong>
          {step === 3 && ce.RoomName ? (
            <>
              , connected to <strong>#{ce.RoomName.replace(/^#/, '')}</strong>
            </>
          ) : null}
          .
        </p>
        <p className="muted">
          Connecting Parley to Slack arrives with the Slack integration, in the next release of the console.
        </p>
        <ButtonLink to="/" variant="secondary">
          Go to the dashboard
        </ButtonLink>
      </section>
    </>
  );
}
