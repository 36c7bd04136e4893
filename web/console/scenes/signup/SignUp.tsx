/** #/signup?error=…&source=…: creates an account on a free trial, or sends the user to Slack sign-up. */
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { EmailSchema, MESSAGES, NewPasswordSchema } from '../../../../server/shared';
import { ERROR_CODES } from '../../../../server/shared/constants';
import { ApiError, messageOf, readTrackingId, signUp, UNKNOWN_ERROR } from '../../api';
import { AuthLayout } from '../../components/AuthLayout';
import { Alert, Button, TextField, useDocumentTitle } from '../../components/ui';
import { firstChatEndpoint, signUpErrorFrom, teamChatSignUpHref } from '../../lib/rules';
import { useSession } from '../../session/session';
import { BrandPanel, TrialPromise } from './BrandPanel';

type FieldErrors = { email?: string; password?: string };

export function SignUp() {
  useDocumentTitle('Sign up');
  const [params] = useSearchParams();
  const queryError = signUpErrorFrom(params.get('error'));
  const source = params.get('source');
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  // The form's own sign-up can meet an existing account too: the same help as ?error=user_exists.
  const [exists, setExists] = useState(false);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors: FieldErrors = {};
    if (!EmailSchema.safeParse(email).success) errors.email = MESSAGES.emailInvalid;
    if (!NewPasswordSchema.safeParse(password).success) errors.password = MESSAGES.passwordTooShort;
    setFieldErrors(errors);
    if (errors.email || errors.password) return;

    setPending(true);
    setError(null);
    setExists(false);
    let token: string;
    try {
      token = await signUp({ email: email.trim(), password, tklID: readTrackingId() });
    } catch (err) {
      if (err instanceof ApiError && err.code === ERROR_CODES.userExists) setExists(true);
      else setError(messageOf(err));
      setPending(false);
      return;
    }
    try {
      const user = await signIn(token);
      const first = firstChatEndpoint(user.ces);
      if (!first) throw new Error('no widget');
      await navigate(`/setup/${first.Id}`, { replace: true });
    } catch {
      setError('Your account was created but could not be loaded. Please contact support.');
      setPending(false);
    }
  };

  return (
    <AuthLayout
      title="Create your Parley account"
      subtitle={<TrialPromise />}
      aside={<BrandPanel testimonials />}
      footer={
        <>
          Already have an account? <Link to="/login">Log in</Link>
        </>
      }
    >
      {(queryError?.kind === 'user_exists' || exists) && (
        <Alert kind="error" title="You already have an account">
          This user already has a Parley account. <Link to="/login">Log in</Link> or <Link to="/forgotpwd">reset your password</Link>. Still
          stuck? Contact support.
        </Alert>
      )}
      {queryError?.kind === 'unknown' && <Alert kind="error">{UNKNOWN_ERROR}</Alert>}
      <a className="btn btn--dark btn--block" href={teamChatSignUpHref(source)}>
        <SlackMark /> Sign up with Slack
      </a>
      <div className="divider">
        <span>or with your email</span>
      </div>
      <form className="stack" onSubmit={submit} noValidate>
        {error && <Alert kind="error">{error}</Alert>}
        <TextField
          label="Work email"
          type="email"
          name="email"
          autoComplete="email"
          required
          error={fieldErrors.email}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          hint="At least 7 characters."
          error={fieldErrors.password}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <Button type="submit" block busy={pending}>
          Sign up
        </Button>
        <p className="fine-print">
          {/* Consent is asked once, on the next screen (its checkbox records it): not assumed here as well. */}
          Next you read and accept the <Link to="/legal/terms">Terms of Service</Link> and{' '}
          <Link to="/legal/privacy-policy">Privacy Policy</Link>.
        </p>
      </form>
    </AuthLayout>
  );
}

function SlackMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="#E01E5A" d="M5 15a2 2 0 1 1-2-2h2v2zm1 0a2 2 0 1 1 4 0v5a2 2 0 1 1-4 0v-5z" />
      <path fill="#36C5F0" d="M9 5a2 2 0 1 1 2-2v2H9zm0 1a2 2 0 1 1 0 4H4a2 2 0 1 1 0-4h5z" />
      <path fill="#2EB67D" d="M19 9a2 2 0 1 1 2 2h-2V9zm-1 0a2 2 0 1 1-4 0V4a2 2 0 1 1 4 0v5z" />
      <path fill="#ECB22E" d="M15 19a2 2 0 1 1-2 2v-2h2zm0-1a2 2 0 1 1 0-4h5a2 2 0 1 1 0 4h-5z" />
    </svg>
  );
}
