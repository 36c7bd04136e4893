/** #/legal: the user accepts the current Terms of Service and Privacy Policy before using the console. */
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { LEGAL_DOCUMENTS, TERMS_VERSION } from '../../../../server/shared/constants';
import { confirmLegal, messageOf } from '../../api';
import { AuthLayout } from '../../components/AuthLayout';
import { TermsCheckbox } from '../../components/TermsCheckbox';
import { Alert, Button, useDocumentTitle } from '../../components/ui';
import { needsTermsAcceptance } from '../../lib/rules';
import { useSession, useUser } from '../../session/session';

export function Legal() {
  useDocumentTitle('Terms and privacy');
  const user = useUser();
  const { reload, signOut } = useSession();
  const navigate = useNavigate();
  const [agreed, setAgreed] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const updated = user.ActiveTOSPP !== '';
  // Nothing to accept: the current terms were accepted already (also right after Continue).
  if (!needsTermsAcceptance(user)) return <Navigate to="/" replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!agreed) return;
    setPending(true);
    setError(null);
    try {
      for (const document of LEGAL_DOCUMENTS) await confirmLegal(document, TERMS_VERSION);
      await reload();
      await navigate('/', { replace: true });
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
