/**
 * #/accept-invite?token=…: the page an invitation mail opens. The invitee sets a password and accepts the terms,
 * and is signed in.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES, NewPasswordSchema } from '../../../../server/shared';
import { INVITATION_TOKEN_LENGTH, TEAM_MESSAGES } from '../../../../server/shared/teamMessages';
import { messageOf } from '../../api';
import { acceptInvitation, getInvitation } from '../../api/team';
import { AuthLayout } from '../../components/AuthLayout';
import { TermsCheckbox } from '../../components/TermsCheckbox';
import { Alert, Button, PageLoader, TextField, useDocumentTitle } from '../../components/ui';
import { useSession } from '../../session/session';

const TOKEN = new RegExp(`^[A-Za-z0-9]{${INVITATION_TOKEN_LENGTH}}$`);

export function AcceptInvite() {
  useDocumentTitle('Join your team on Parley');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState<string | null | undefined>(TOKEN.test(token) ? undefined : null);
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (email !== undefined) return;
    getInvitation(token).then(
      (invitation) => setEmail(invitation.email),
      () => setEmail(null),
    );
  }, [email, token]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = NewPasswordSchema.safeParse(password);
    if (!checked.success) {
      setFieldError(checked.error.issues[0]?.message ?? MESSAGES.passwordTooShort);
      return;
    }
    setFieldError(null);
    if (!agreed) {
      setError(TEAM_MESSAGES.termsRequired);
      return;
    }
    setError(null);
    setPending(true);
    try {
      await signIn(await acceptInvitation(token, password));
      await navigate('/', { replace: true });
    } catch (err) {
      setError(messageOf(err));
      setPending(false);
    }
  };

  if (email === undefined) return <PageLoader />;
  if (email === null) {
    return (
      <AuthLayout title="Invitation not valid" footer={<Link to="/login">Log in</Link>}>
        <Alert kind="error">{TEAM_MESSAGES.invitationInvalid}</Alert>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout
      title="Join your team on Parley"
      subtitle={`You were invited as ${email}. Choose a password to answer your website's chats from Slack.`}
    >
      <form className="stack" onSubmit={submit} noValidate>
        {error && <Alert kind="error">{error}</Alert>}
        <TextField label="E-mail" type="email" name="email" autoComplete="username" value={email} readOnly />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          hint="At least 7 characters."
          error={fieldError}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <TermsCheckbox checked={agreed} onChange={setAgreed} />
        <Button type="submit" block busy={pending} disabled={!agreed}>
          Join and sign in
        </Button>
      </form>
    </AuthLayout>
  );
}
