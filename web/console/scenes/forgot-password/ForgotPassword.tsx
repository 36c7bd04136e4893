/** #/forgotpwd: asks for a password reset e-mail. */
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { messageOf, sendPasswordResetEmail } from '../../api';
import { AuthLayout } from '../../components/AuthLayout';
import { CheckIcon } from '../../components/icons';
import { Alert, Button, TextField, useDocumentTitle } from '../../components/ui';

export function ForgotPassword() {
  useDocumentTitle('Reset your password');
  const [email, setEmail] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (email.trim() === '') {
      setError('Enter the email you signed up with.');
      return;
    }
    setState('sending');
    setError(null);
    try {
      await sendPasswordResetEmail({ email: email.trim() });
      setState('sent');
    } catch (err) {
      setError(messageOf(err));
      setState('idle');
    }
  };

  return (
    <AuthLayout
      title="Reset your password"
      subtitle="Enter the email you use for Parley and we'll send you a link to choose a new password."
      footer={<Link to="/login">Back to log in</Link>}
    >
      <form className="stack" onSubmit={submit} noValidate>
        {error && <Alert kind="error">{error}</Alert>}
        {state === 'sent' && <Alert kind="success">Check your email for password reset instructions</Alert>}
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          readOnly={state === 'sent'}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button
          type="submit"
          block
          variant={state === 'sent' ? 'success' : 'primary'}
          busy={state === 'sending'}
          disabled={state === 'sent'}
        >
          {state === 'sent' ? (
            <>
              <CheckIcon /> Done!
            </>
          ) : (
            'Send password reset email'
          )}
        </Button>
      </form>
    </AuthLayout>
  );
}
