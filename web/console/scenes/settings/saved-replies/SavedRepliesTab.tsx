/**
 * #/settings/{ceId}/saved-replies: the table of saved replies with create, edit and delete (spec sections 2, 4
 * and 5). Responses are shown decoded (the server stores them entity-encoded).
 */
import { useCallback, useEffect, useState } from 'react';
import { messageOf } from '../../../api';
import { deleteSavedReply, listSavedReplies, type SavedReply } from '../../../api/settingsFeatures';
import { useConfirm } from '../../../components/ConfirmDialog';
import { CheckIcon, PlusIcon } from '../../../components/icons';
import { Button, PageLoader } from '../../../components/ui';
import { LockedState } from '../gated/LockedState';
import type { SettingsTabProps } from '../types';
import { type ReplyEditing, SavedReplyDialog } from './SavedReplyDialog';

export default function SavedRepliesTab({ ce, locked, showError, clearError }: SettingsTabProps) {
  const [replies, setReplies] = useState<SavedReply[] | null>(null);
  const [editing, setEditing] = useState<ReplyEditing | null>(null);
  const confirm = useConfirm();

  const load = useCallback(async () => {
    try {
      setReplies(await listSavedReplies(ce.Id));
    } catch (err) {
      showError(messageOf(err));
      setReplies([]);
    }
  }, [ce.Id, showError]);

  useEffect(() => {
    if (!locked) void load();
  }, [load, locked]);

  if (locked) {
    return (
      <LockedState feature="saved replies" title="Add your first saved reply">
        Saved replies are answers your team sends from Slack with one command, or that go out by themselves when a visitor asks a known
        question.
      </LockedState>
    );
  }
  if (replies === null) return <PageLoader label="Loading saved replies…" />;

  const askDelete = (reply: SavedReply) =>
    confirm.ask({
      title: 'Delete saved reply?',
      body: (
        <p>
          Delete the saved reply <strong>{reply.label}</strong>? Operators can no longer send it.
        </p>
      ),
      confirmLabel: 'Delete',
      danger: true,
      action: async () => {
        await deleteSavedReply(ce.Id, reply.id);
        confirm.close();
        await load();
      },
    });

  const create = () => {
    clearError();
    setEditing({ reply: null });
  };

  return (
    <div className="settings-form saved-replies">
      {replies.length === 0 ? (
        <section className="card empty-state">
          <h2>Add your first saved reply</h2>
          <p className="muted">
            Write answers once, send them from Slack with <code className="inline-code">/parley reply N shortcut</code>, or let them go out
            by themselves when a visitor's message has a trigger phrase. <a href="/docs#saved-replies">Read the docs</a>
          </p>
          <Button onClick={create}>
            <PlusIcon /> Create new reply
          </Button>
        </section>
      ) : (
        <section className="card settings-section">
          <div className="section-head">
            <h2>Saved Replies</h2>
            <Button onClick={create}>
              <PlusIcon /> Create new reply
            </Button>
          </div>
          <div className="table-wrap">
            <table className="table saved-replies__table">
              <thead>
                <tr>
                  <th scope="col">Label</th>
                  <th scope="col">Trigger Phrase(s)</th>
                  <th scope="col">Auto send</th>
                  <th scope="col">Shortcut</th>
                  <th scope="col">Response</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {replies.map((r) => (
                  <tr key={r.id}>
                    <td data-label="Label" className="table__strong">
                      {r.label}
                    </td>
                    <td data-label="Trigger Phrase(s)">{r.triggerPhrases}</td>
                    <td data-label="Auto send">
                      {r.autoSend ? (
                        <span className="table__check" role="img" aria-label="Yes">
                          <CheckIcon />
                        </span>
                      ) : (
                        <span className="sr-only">No</span>
                      )}
                    </td>
                    <td data-label="Shortcut">{r.shortcut && <code className="inline-code">{r.shortcut}</code>}</td>
                    <td data-label="Response" className="table__clip">
                      {r.response}
                    </td>
                    <td className="table__actions">
                      <button type="button" className="link-button" onClick={() => setEditing({ reply: r })} aria-label={`Edit ${r.label}`}>
                        edit
                      </button>
                      <button
                        type="button"
                        className="link-button link-button--danger"
                        onClick={() => askDelete(r)}
                        aria-label={`Delete ${r.label}`}
                      >
                        delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      <SavedReplyDialog
        ceId={ce.Id}
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void load();
        }}
      />
      {confirm.dialog}
    </div>
  );
}
