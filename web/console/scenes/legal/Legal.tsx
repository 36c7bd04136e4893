/** #/legal: the user accepts the current Terms of Service and Privacy Policy before using the console. */
import { type FormEvent, useRef, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import type { ChatEndpointView } from '../../../../server/shared';
import { LEGAL_DOCUMENTS, TERMS_VERSION } from '../../../../server/shared/constants';
import { confirmLegal, messageOf } from '../../api';
import { AuthLayout } from '../../components/AuthLayout';
import { TermsCheckbox } from '../../components/TermsCheckbox';
import { Alert, Button, useDocumentTitle } from '../../components/ui';
import { firstChatEndpoint, isConfigured, needsTermsAcceptance } from '../../lib/rules';
import { useSession, useUser } from '../../session/session';

/**
 * Where Continue leads: a user still setting up (no widget finished yet) goes on with the setup of their first
 * widget; anyone else to the dashboard (spec: acceptance returns to the dashboard).
 */
function afterTerms(ces: readonly ChatEndpointView[]): string {
  if (ces.some(isConfigured)) return '/';
  const first = firstChatEndpoint(ces);
  return first ? `/setup/${first.Id}` : '/';
}

export function Legal() {
  useDocumentTitle('Terms and privacy');
  const user = useUser();
  const { reload, signOut } = useSession();
  const navigate = useNavigate();
  const [agreed, setAgreed] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const updated = user.ActiveTOSPP !== '';
  // Where Continue leads, set before the user is reloaded (the reload itself shows the way out below).
  const leadsTo = useRef<string | null>(null);
  // Nothing (more) to accept: right after Continue, on to where it leads; a user who came here by hand, home.
  if (!needsTermsAcceptance(user)) return <Navigate to={leadsTo.current ?? '/'} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!agreed) return;
    setPending(true);
    setError(null);
    try {
      for (const document of LEGAL_DOCUMENTS) await confirmLegal(document, TERMS_VERSION);
      leadsTo.current = afterTerms(user.ces);
      await reload();
    } catch (err) {
      setError(messageOf(err));
      setPending(false);
    }
  };

  return (
    <AuthLayout
      title={updated ? 'Our terms have changed' : 'One last thing'}
      subtitle={
        updated
          ? 'Please review and accept the updated Terms of Service and Privacy Policy to keep using Parley.'
          : 'Before you start, please review and accept the Terms of Service and Privacy Policy.'
      }
      footer={
        <>
          Signed in as {user.email}.{' '}
          <button
            type="button"
            className="link-button"
            onClick={async () => {
              await signOut();
              await navigate('/login', { replace: true });
            }}
          >
            Log out
          </button>
        </>
      }
    >
      <form className="stack" onSubmit={submit}>
        {error && <Alert kind="error">{error}</Alert>}
        <TermsCheckbox checked={agreed} onChange={setAgreed} />
        <Button type="submit" block disabled={!agreed} busy={pending}>
          Continue
        </Button>
      </form>
    </AuthLayout>
  );
}
