/**
 * The Install tab's "Verified identity" card: the widget's identity secret (made or replaced by an admin, shown
 * once, right after), and the code a site's server uses to sign its users' ids (server/shared/identity.ts).
 */
import { useId, useState } from 'react';
import type { ChatEndpointView } from '../../../../server/shared';
import {
  IDENTIFY_BROWSER_SNIPPET,
  IDENTITY_LANGUAGE_LABELS,
  IDENTITY_LANGUAGES,
  IDENTITY_SECRET_ENV,
  type IdentityLanguage,
  identityServerSnippet,
} from '../../../../server/shared/identity';
import { regenerateIdentitySecret } from '../../api/settings';
import { useConfirm } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/EmbedCode';
import { SegmentedTabs } from '../../components/SegmentedTabs';
import { Alert, Button } from '../../components/ui';

const madeOn = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

export function IdentitySecretCard({ ce, admin, onMade }: { ce: ChatEndpointView; admin: boolean; onMade: () => void }) {
  const confirm = useConfirm();
  const [secret, setSecret] = useState<string | null>(null);
  const [language, setLanguage] = useState<IdentityLanguage>('node');
  const tabs = useId();
  const has = ce.identitySecretCreatedAt !== null || secret !== null;

  const make = async () => {
    const made = await regenerateIdentitySecret(ce.Id);
    setSecret(made.identitySecret);
    onMade();
  };
  const askRegenerate = () =>
    confirm.ask({
      title: 'Regenerate the identity secret?',
      body: (
        <p>
          The current secret stops working at once: until your server signs with the new one, your signed-in users are not verified and do
          not see their conversations from other devices.
        </p>
      ),
      confirmLabel: 'Regenerate secret',
      danger: true,
      action: async () => {
        await make();
        confirm.close();
      },
    });
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const create = async () => {
    setCreating(true);
    setError(null);
    try {
      await make();
    } catch {
      setError('The secret could not be made. Please try again.');
    } finally {
      setCreating(false);
    }
  };

  return (
    <section className="card identity" aria-labelledby="identity-title">
      <h2 id="identity-title" className="card__title">
        Verified identity
      </h2>
      <p className="muted">
        When your visitors are signed in to your site, let your server vouch for them: it signs each user's id with this widget's identity
        secret. A verified user sees their conversations on every browser and phone, and Slack marks them verified. Without a valid
        signature, the name and e-mail you pass are only a label.
      </p>

      {secret !== null && (
        <div className="identity__secret">
          <Alert kind="warning" title="Copy the secret now">
            Parley shows it only this once. Keep it on your server, in the environment variable{' '}
            <code className="inline-code">{IDENTITY_SECRET_ENV}</code>; never put it in a page.
          </Alert>
          <div className="snippet">
            <div className="snippet__bar">
              <p className="snippet__where">Identity secret</p>
              <div className="snippet__actions">
                <CopyButton text={secret} />
              </div>
            </div>
            <pre className="snippet__code identity__value" data-testid="identity-secret">
              <code>{secret}</code>
            </pre>
          </div>
        </div>
      )}

      <div className="identity__status">
        <p>
          {secret !== null
            ? 'Identity secret made just now.'
            : ce.identitySecretCreatedAt
              ? `Identity secret made on ${madeOn(ce.identitySecretCreatedAt)}. It was shown once, when it was made.`
              : 'This widget has no identity secret yet.'}
        </p>
        {admin ? (
          has ? (
            <Button variant="secondary" className="btn--small" onClick={askRegenerate}>
              Regenerate secret
            </Button>
          ) : (
            <Button className="btn--small" onClick={() => void create()} busy={creating}>
              Create identity secret
            </Button>
          )
        ) : (
          <p className="muted">Only admins can make the identity secret.</p>
        )}
      </div>
      {error && <Alert kind="error">{error}</Alert>}

      <div className="embed__group">
        <div className="embed__legend" id={`${tabs}-lang`}>
          1. On your server, sign the user's id
        </div>
        <SegmentedTabs
          values={IDENTITY_LANGUAGES}
          value={language}
          onChange={setLanguage}
          labelOf={(value) => IDENTITY_LANGUAGE_LABELS[value]}
          label={{ by: `${tabs}-lang` }}
        />
      </div>
      <div className="snippet identity__first" role="tabpanel" aria-label={`${IDENTITY_LANGUAGE_LABELS[language]} code`}>
        <div className="snippet__bar">
          <p className="snippet__where">The hex HMAC-SHA256 of the user's id, keyed with the secret.</p>
          <div className="snippet__actions">
            <CopyButton text={identityServerSnippet(language)} />
          </div>
        </div>
        <pre className="snippet__code identity__code" data-testid="identity-snippet">
          <code>{identityServerSnippet(language)}</code>
        </pre>
      </div>

      <div className="embed__legend identity__legend">2. On the page, pass it with the user's id</div>

      <div className="snippet">
        <div className="snippet__bar">
          <p className="snippet__where">After the embed code, on pages where the user is signed in.</p>
          <div className="snippet__actions">
            <CopyButton text={IDENTIFY_BROWSER_SNIPPET} />
          </div>
        </div>
        <pre className="snippet__code identity__code">
          <code>{IDENTIFY_BROWSER_SNIPPET}</code>
        </pre>
      </div>
      <p className="muted identity__foot">
        When the user signs out, call <code className="inline-code">parley.reset()</code> so the next person on that computer starts afresh.
        To drop identities that are not signed, turn on "Accept only verified identities" in Behavior.
      </p>
      {confirm.dialog}
    </section>
  );
}
