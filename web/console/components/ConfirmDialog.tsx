/** A confirmation step before an action that changes or removes something (spec section 5). */
import { type ReactNode, useState } from 'react';
import { messageOf } from '../api';
import { Dialog } from './Dialog';
import { Alert, Button } from './ui';

export type ConfirmRequest = {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  /** Runs on confirm; a rejection shows its message in the dialog and keeps it open. */
  action: () => Promise<unknown>;
};

/**
 * Renders the dialog for `request` (closed when null). The action decides what follows a success (close the
 * dialog, navigate); `onCancel` runs when the user closes the dialog without confirming.
 */
export function ConfirmDialog({ request, onCancel }: { request: ConfirmRequest | null; onCancel: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (busy) return;
    setError(null);
    onCancel();
  };

  const confirm = async () => {
    if (!request) return;
    setBusy(true);
    setError(null);
    try {
      await request.action();
      setBusy(false);
    } catch (err) {
      setBusy(false);
      setError(messageOf(err));
    }
  };

  return (
    <Dialog open={request !== null} title={request?.title ?? ''} onClose={close}>
      <div className="confirm__body">{request?.body}</div>
      {error && (
        <Alert kind="error" title="Error">
          {error}
        </Alert>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={close} disabled={busy}>
          Cancel
        </Button>
        <Button variant={request?.danger ? 'danger' : 'primary'} onClick={confirm} busy={busy}>
          {request?.confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}

/** State holder for one ConfirmDialog: `ask(request)` opens it, `dialog` renders it. */
export function useConfirm(): { ask: (request: ConfirmRequest) => void; close: () => void; dialog: ReactNode } {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const close = () => setRequest(null);
  return {
    ask: setRequest,
    close,
    dialog: <ConfirmDialog request={request} onCancel={close} />,
  };
}
