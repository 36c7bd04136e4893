/**
 * Change password: the console sends the signed-in user a password reset e-mail, so the new password is
 * always set through the same single-use link flow (the spec does not show the form's details).
 */
import { useState } from 'react';
import { messageOf, sendPasswordResetEmail } from '../api';
import { Dialog } from './Dialog';
import { Alert, Button } from './ui';

export function ChangePasswordDialog({ email, open, onClose }: { email: string; open: boolean; onClose: () => void }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setState('idle');
    setError(null);
    onClose();
  };

  const send = async () => {
    setState('sending');
    setError(null);
    try {
      await sendPasswordResetEmail({ email });
      setState('sent');
    } catch (err) {
      setError(messageOf(err));
      setState('idle');
    }
  };

  return (
    <Dialog open={open} title="Change password" onClose={close}>
      <p className="muted">
        For your security, we'll e-mail a link to <strong>{email}</strong>. Open it to choose a new password; the link works once, for one
        hour.
      </p>
      {error && <Alert kind="error">{error}</Alert>}
      {state === 'sent' && <Alert kind="success">Check your email for password reset instructions</Alert>}
      <div className="dialog__actions">
        {state === 'sent' ? (
          // One way out once the mail is sent: 'Close' beside 'Done!' asked the same question twice.
          <Button variant="success" onClick={close}>
            Done!
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button onClick={send} busy={state === 'sending'}>
              Send password reset email
            </Button>
          </>
        )}
      </div>
    </Dialog>
  );
}
