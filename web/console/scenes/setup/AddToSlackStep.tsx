/** Setup step 1 (progress 33%): authorise Parley in a Slack workspace through Slack's OAuth page. */
import { useState } from 'react';
import type { ChatEndpointView } from '../../../../server/shared';
import { messageOf } from '../../api';
import { slackAuthorizeUrl } from '../../api/widgets';
import { CheckIcon } from '../../components/icons';
import { SlackMark } from '../../components/moreIcons';
import { Alert } from '../../components/ui';

const WHAT_PARLEY_DOES = [
  'Each visitor conversation becomes a thread in the channel you choose next.',
  'Your team answers in the thread; replies reach the visitor instantly.',
  'You are online while someone in the channel is active in Slack.',
];

export function AddToSlackStep({ ce }: { ce: ChatEndpointView }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const addToSlack = async () => {
    setBusy(true);
    setError(null);
    try {
      window.location.href = await slackAuthorizeUrl(ce.Id, 'install');
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };

  return (
    <div className="setup-intro">
      <section className="card setup-card" aria-labelledby="step1-title">
        <div className="setup-card__intro">
          <h1 id="step1-title" className="setup-card__title">
            Connect Parley to your Slack workspace
          </h1>
          <p className="muted">
            Parley answers your website visitors from Slack. Add it to the workspace your team already uses; you pick the channel right
            after.
          </p>
        </div>
        <ul className="check-list">
          {WHAT_PARLEY_DOES.map((line) => (
            <li key={line}>
              <CheckIcon />
              {line}
            </li>
          ))}
        </ul>
        {error && (
          <Alert kind="error" title="Error" onDismiss={() => setError(null)}>
            {error}
          </Alert>
        )}
        <div className="setup-card__actions">
          <button type="button" className="btn slack-btn" onClick={addToSlack} disabled={busy} aria-busy={busy || undefined}>
            {busy ? <span className="spinner spinner--inline" aria-hidden="true" /> : <SlackMark />}
            Add to Slack
          </button>
          <p className="fine-print">
            You will be asked to approve Parley in Slack. Use the Slack account you want Parley to create channels with.
          </p>
        </div>
      </section>
      <SlackPreview />
    </div>
  );
}

/** A drawing of what Parley looks like in Slack: a visitor's conversation as a thread, answered in place. */
function SlackPreview() {
  return (
    <aside className="slack-preview" aria-hidden="true">
      <div className="slack-preview__head">
        <span className="slack-preview__hash">#</span>website-chat
      </div>
      <div className="slack-msg">
        <span className="slack-msg__avatar slack-msg__avatar--visitor">V</span>
        <div>
          <p className="slack-msg__who">
            Visitor 42 <span>· Paris · /pricing</span>
          </p>
          <p>Hi! Do you ship to France?</p>
          <p className="slack-msg__replies">2 replies</p>
        </div>
      </div>
      <div className="slack-thread">
        <div className="slack-msg">
          <span className="slack-msg__avatar">A</span>
          <div>
            <p className="slack-msg__who">Alice</p>
            <p>We do! Delivery takes 2 to 3 days.</p>
          </div>
        </div>
        <div className="slack-msg">
          <span className="slack-msg__avatar slack-msg__avatar--visitor">V</span>
          <div>
            <p className="slack-msg__who">Visitor 42</p>
            <p>Perfect, thank you!</p>
          </div>
        </div>
      </div>
    </aside>
  );
}
