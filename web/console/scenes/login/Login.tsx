/** #/login: e-mail and password; the button is disabled while the request is pending. */
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { logIn, messageOf } from '../../api';
import { AuthLayout } from '../../components/AuthLayout';
import type { LoginState } from '../../components/guards';
import { Alert, Button, TextField, useDocumentTitle } from '../../components/ui';
import { useSession } from '../../session/session';
import { BrandPanel } from '../signup/BrandPanel';

export function Login() {
  useDocumentTitle('Log in');
  const { signIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (email.trim() === '' || password === '') {
      setError('Enter your email and password.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      const token = await logIn({ email: email.trim(), password });
      await signIn(token);
      const from = (location.state as LoginState | null)?.from;
      navigate(from?.startsWith('/') && !from.startsWith('/login') ? from : '/', { replace: true });
    } catch (err) {
      setError(messageOf(err));
      setPending(false);
    }
  };

  return (
    <AuthLayout
      title="Welcome back"
      subtitle="Log in to answer your visitors from Slack."
      aside={<BrandPanel />}
      footer={
        <>
          New to Parley? <Link to="/signup">Start your free trial</Link>
        </>
      }
    >
      <form className="stack" onSubmit={submit} noValidate>
        {error && <Alert kind="error">{error}</Alert>}
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <div className="form-row-end">
          <Link to="/forgotpwd">Forgot password?</Link>
        </div>
        <Button type="submit" block busy={pending}>
          Log in
        </Button>
      </form>
    </AuthLayout>
  );
}
