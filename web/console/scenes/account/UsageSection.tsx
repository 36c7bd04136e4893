/** Plan Usage: this month's conversations against convosPerMonth, channels against maxChannels. */
import { useEffect, useState } from 'react';
import { conversationCount } from '../../api/account';
import { useUser } from '../../session/session';
import { USAGE_BAR_WIDTH, type Usage, usage } from './accountRules';

export function UsageSection() {
  const user = useUser();
  const { account } = user;
  const [conversations, setConversations] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    conversationCount(account.Id)
      .then((count) => live && setConversations(count))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [account.Id]);

  return (
    <section className="card account-section" aria-labelledby="usage-title">
      <h2 id="usage-title">Plan Usage</h2>
      {failed ? (
        <p className="muted">The conversation count could not be loaded right now.</p>
      ) : (
        <UsageBar
          label="Conversations this month"
          value={usage(conversations ?? 0, account.effectivePlan.convosPerMonth)}
          loading={conversations === null}
        />
      )}
      {/* Using every channel the plan includes is how a plan is meant to be used: red only past the limit. */}
      <UsageBar label="Channels" value={usage(user.ces.length, account.effectivePlan.maxChannels, true)} />
    </section>
  );
}

function UsageBar({ label, value, loading }: { label: string; value: Usage; loading?: boolean }) {
  return (
    <div className={`usage${value.danger ? ' usage--danger' : ''}`}>
      <div className="usage__label">
        <span>{label}</span>
        <span className="usage__figures">
          {loading ? '…' : `${value.used.toLocaleString('en-US')} of ${value.limit.toLocaleString('en-US')}`}
        </span>
      </div>
      <div
        className="usage__track"
        style={{ maxWidth: USAGE_BAR_WIDTH }}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={value.limit}
        aria-valuenow={value.used}
      >
        <div className="usage__bar" style={{ width: loading ? 0 : value.width }} />
      </div>
    </div>
  );
}
