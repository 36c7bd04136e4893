/** The modal 'Create New Saved Reply' / 'Edit Saved Reply': label and response required (highlighted, spec section 5). */
import { type FormEvent, useState } from 'react';
import { SAVED_REPLY_LIMITS } from '../../../../../server/shared/savedReplies';
import { messageOf } from '../../../api';
import { type SavedReply, saveSavedReply } from '../../../api/settingsFeatures';
import { Dialog } from '../../../components/Dialog';
import { MarkdownHint } from '../../../components/MarkdownHint';
import { Alert, Button, TextField } from '../../../components/ui';

export type ReplyEditing = { reply: SavedReply | null };

/** What a missing required field says under it, beside its red border. */
export const LABEL_MISSING = 'Enter a label: operators find the reply by it.';
export const RESPONSE_MISSING = 'Enter the response: it is what the visitor receives.';

export function SavedReplyDialog({
  ceId,
  editing,
  onClose,
  onSaved,
}: {
  ceId: string;
  editing: ReplyEditing | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  return (
    <Dialog open={editing !== null} title={editing?.reply ? 'Edit Saved Reply' : 'Create New Saved Reply'} onClose={onClose}>
      {editing && <ReplyForm key={editing.reply?.id ?? 'new'} ceId={ceId} reply={editing.reply} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function ReplyForm({
  ceId,
  reply,
  onClose,
  onSaved,
}: {
  ceId: string;
  reply: SavedReply | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [label, setLabel] = useState(reply?.label ?? '');
  const [triggerPhrases, setTriggerPhrases] = useState(reply?.triggerPhrases ?? '');
  const [shortcut, setShortcut] = useState(reply?.shortcut ?? '');
  const [response, setResponse] = useState(reply?.response ?? '');
  const [autoSend, setAutoSend] = useState(reply?.autoSend ?? false);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const labelMissing = label.trim() === '';
  const responseMissing = response.trim() === '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (labelMissing || responseMissing) return;
    setBusy(true);
    setError(null);
    try {
      await saveSavedReply(ceId, {
        ...(reply ? { id: reply.id } : {}),
        label,
        triggerPhrases,
        shortcut: shortcut.trim(),
        response,
        autoSend,
      });
      onSaved();
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };

  return (
    <form className="reply-form" onSubmit={submit} noValidate>
      {error && (
        <Alert kind="error" title="Error:">
          {error}
        </Alert>
      )}
      <TextField
        label="Label"
        value={label}
        maxLength={SAVED_REPLY_LIMITS.labelChars}
        onChange={(e) => setLabel(e.target.value)}
        error={tried && labelMissing ? LABEL_MISSING : null}
        hint="An internal name, never shown to visitors."
        autoFocus
      />
      <TextField
        label="Trigger Phrase(s)"
        value={triggerPhrases}
        maxLength={SAVED_REPLY_LIMITS.triggerChars}
        onChange={(e) => setTriggerPhrases(e.target.value)}
        hint="Comma separated, e.g. price, how much. A visitor message with one of them can send this reply by itself."
      />
      <TextField
        label="Shortcut"
        value={shortcut}
        maxLength={SAVED_REPLY_LIMITS.shortcutChars}
        onChange={(e) => setShortcut(e.target.value.replace(/\s/g, ''))}
        hint={
          <>
            Operators send it from Slack with <code className="inline-code">/parley reply N {shortcut || '{shortcut}'}</code>.
          </>
        }
      />
      <div className={`field${tried && responseMissing ? ' field--invalid' : ''}`}>
        <label className="field__label" htmlFor="saved-reply-response">
          Response
        </label>
        <textarea
          id="saved-reply-response"
          className="field__input"
          rows={5}
          value={response}
          maxLength={SAVED_REPLY_LIMITS.responseChars}
          aria-invalid={tried && responseMissing ? true : undefined}
          aria-describedby={tried && responseMissing ? 'saved-reply-response-error' : undefined}
          onChange={(e) => setResponse(e.target.value)}
        />
        {tried && responseMissing && (
          <p className="field__error" id="saved-reply-response-error">
            {RESPONSE_MISSING}
          </p>
        )}
        <p className="field__hint">
          <MarkdownHint /> Line breaks are kept.
        </p>
      </div>
      <label className="switch-row">
        <input type="checkbox" checked={autoSend} onChange={(e) => setAutoSend(e.target.checked)} />
        <span className="switch-row__text">
          Auto send
          <span className="switch-row__hint">Send this reply by itself when a visitor's message contains a trigger phrase.</span>
        </span>
      </label>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" busy={busy}>
          Save
        </Button>
      </div>
    </form>
  );
}
