/** #/reset_password?token=…: sets a new password with the token from the e-mail. */
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES, NewPasswordSchema, RESET_TOKEN_PATTERN } from '../../../../server/shared';
import { messageOf, resetPassword } from '../../api';
import { AuthLayout } from '../../components/AuthLayout';
import { Alert, Button, TextField, useDocumentTitle } from '../../components/ui';
import { useSession } from '../../session/session';

export function ResetPassword() {
  useDocumentTitle('Choose a new password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const tokenValid = RESET_TOKEN_PATTERN.test(token);
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(tokenValid ? null : MESSAGES.invalidToken);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!tokenValid) {
      setError(MESSAGES.invalidToken);
      return;
    }
    const checked = NewPasswordSchema.safeParse(password);
    if (!checked.success) {
      setFieldError(checked.error.issues[0]?.message ?? MESSAGES.passwordTooShort);
      return;
    }
    setFieldError(null);
    setError(null);
    setPending(true);
    try {
      const sessionToken = await resetPassword({ token, password });
      if (sessionToken) {
        await signIn(sessionToken);
        await navigate('/', { replace: true });
      } else {
        await navigate('/login', { replace: true });
      }
    } catch (err) {
      setError(messageOf(err));
      setPending(false);
    }
  };

  return (
    <AuthLayout
      title="Choose a new password"
      subtitle="Use at least 7 characters. You'll be signed in right after."
      footer={
        <>
          Link expired? <Link to="/forgotpwd">Send a new one</Link>
        </>
      }
    >
      <form className="stack" onSubmit={submit} noValidate>
        {error && <Alert kind="error">{error}</Alert>}
        <TextField
          label="New password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          disabled={!tokenValid}
          error={fieldError}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <Button type="submit" block busy={pending} disabled={!tokenValid}>
          Set new password
        </Button>
      </form>
    </AuthLayout>
  );
}
