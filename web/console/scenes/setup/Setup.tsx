/**
 * #/setup/{ceId}: the three setup steps of a widget (spec "Setup"). The widget's Step (a number or text)
 * chooses the view: missing or below 2 → add Parley to Slack, 2 → choose a channel, 3 → the embed page.
 */
import { useParams } from 'react-router-dom';
import { NotFoundRedirect, useCurrentCe } from '../../components/guards';
import { CheckIcon } from '../../components/icons';
import { SlackProblemAlert } from '../../components/SlackProblemAlert';
import { useDocumentTitle } from '../../components/ui';
import { stepOf } from '../../lib/rules';
import { AddToSlackStep } from './AddToSlackStep';
import { ChannelStep } from './ChannelStep';
import { EmbedStep } from './EmbedStep';

const STEPS = ['Add Parley to Slack', 'Choose a Slack channel', 'Install the widget'] as const;

export function Setup() {
  const { ceId } = useParams();
  const ce = useCurrentCe(ceId);
  useDocumentTitle('Set up your widget');
  if (!ce) return <NotFoundRedirect />;
  const step = stepOf(ce);

  return (
    <div className="setup-page">
      {step < 3 && <SetupProgress step={step} />}
      {/* Back from Slack without a yes (?error=access_denied when the consent was cancelled). */}
      <SlackProblemAlert />
      {step === 1 && <AddToSlackStep ce={ce} />}
      {step === 2 && <ChannelStep key={ce.Id} ce={ce} />}
      {step === 3 && <EmbedStep key={ce.Id} ce={ce} />}
    </div>
  );
}

export function SetupProgress({ step }: { step: 1 | 2 | 3 }) {
  const progress = step === 1 ? 33 : step === 2 ? 67 : 100;
  return (
    <div className="setup-progress">
      <div className="setup-progress__top">
        <span className="setup-progress__label">
          Step {step} of 3 · {STEPS[step - 1]}
        </span>
        <span className="setup-progress__value">{progress}%</span>
      </div>
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
    </div>
  );
}
