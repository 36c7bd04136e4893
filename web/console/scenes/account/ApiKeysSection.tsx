/**
 * API key and Zapier API key (admins): generate, or regenerate after a confirmation that the current key is
 * revoked. A new key is shown in full once, with a copy button; afterwards only its first characters.
 */
import { useState } from 'react';
import { type ApiKeyField, TEAM_MESSAGES } from '../../../../server/shared/teamMessages';
import { ApiError } from '../../api';
import { generateApiKey } from '../../api/team';
import { useConfirm } from '../../components/ConfirmDialog';
import { Alert, Button } from '../../components/ui';
import { useSession, useUser } from '../../session/session';

const KEYS: { field: ApiKeyField; label: string; use: string; docs: string }[] = [
  { field: 'apiKey', label: 'API key', use: 'Reads conversations, messages and visitors through the REST API.', docs: '/docs/rest-api' },
  {
    field: 'zapierApiKey',
    label: 'Zapier API key',
    use: 'Connects Zapier (REST hooks) to new conversations, ended conversations, offline messages, feedback and unanswered chats.',
    docs: '/docs/rest-api#rest-hooks',
  },
];

/** Spec §8: the server Message, else the error message, else the unknown-error text. */
function keyError(err: unknown): string {
  if (err instanceof ApiError && err.status > 0 && err.message) return err.message;
  if (err instanceof Error && err.message) return err.message;
  return TEAM_MESSAGES.apiKeyUnknownError;
}

export function ApiKeysSection() {
  const { account } = useUser();
  const { reload } = useSession();
  const [fresh, setFresh] = useState<Partial<Record<ApiKeyField, string>>>({});
  const [copied, setCopied] = useState<ApiKeyField | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<ApiKeyField | null>(null);
  const { ask, close, dialog } = useConfirm();

  const generate = async (field: ApiKeyField) => {
    setError(null);
    setBusy(field);
    try {
      const user = await generateApiKey(field);
      setFresh((was) => ({ ...was, [field]: user.account[field] }));
      await reload();
    } catch (err) {
      setError(keyError(err));
    } finally {
      setBusy(null);
    }
  };

  const regenerate = (field: ApiKeyField, label: string) =>
    ask({
      title: `Regenerate the ${label}?`,
      body: <p>{TEAM_MESSAGES.regenerateConfirm}</p>,
      confirmLabel: 'Revoke and regenerate',
      danger: true,
      action: async () => {
        close();
        await generate(field);
      },
    });

  const copy = async (field: ApiKeyField, value: string) => {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    setCopied(field);
  };

  return (
    <section className="card account-section" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      {error && (
        <Alert kind="error" title="Error" onDismiss={() => setError(null)}>
          {error}
        </Alert>
      )}
      <div className="api-keys">
        {KEYS.map(({ field, label, use, docs }) => {
          const shownOnce = fresh[field];
          const stored = account[field];
          return (
            <div className="api-key" key={field}>
              <div className="api-key__text">
                <h3>{label}</h3>
                <p className="muted">
                  {use} <a href={docs}>How to use it</a>
                </p>
              </div>
              {shownOnce ? (
                <div className="api-key__fresh">
                  <input
                    className="field__input api-key__value"
                    readOnly
                    value={shownOnce}
                    aria-label={`New ${label}`}
                    onFocus={(e) => e.target.select()}
                  />
                  <Button variant="secondary" onClick={() => void copy(field, shownOnce)}>
                    {copied === field ? 'Copied' : 'Copy'}
                  </Button>
                  <p className="api-key__note">Copy it now: Parley shows it in full only this once.</p>
                </div>
              ) : (
                <code className="api-key__masked">{stored || 'No key yet'}</code>
              )}
              <div>
                {stored ? (
                  <Button variant="secondary" busy={busy === field} onClick={() => regenerate(field, label)}>
                    Regenerate
                  </Button>
                ) : (
                  <Button busy={busy === field} onClick={() => void generate(field)}>
                    Generate
                  </Button>
                )}
              </div>
            </div>
          );
        })}
      </div>
      {dialog}
    </section>
  );
}
