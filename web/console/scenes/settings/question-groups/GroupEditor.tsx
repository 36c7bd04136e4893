/**
 * The editor of one question group: Label, Shortcut, Trigger Automatically, Prompt and the question tree, with
 * Save Changes and Cancel (new group) or Remove (spec sections 2, 4 and 5). The tree is normalised as the
 * server will store it before it is checked, so a question left without answers is dropped, not flagged.
 */
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { normaliseTree, QUESTION_GROUP_LIMITS, type TreeNode } from '../../../../../server/shared/questionGroups';
import { ApiError, messageOf } from '../../../api';
import { type QuestionGroup, saveQuestionGroup } from '../../../api/settingsFeatures';
import { CheckIcon } from '../../../components/icons';
import { MarkdownHint } from '../../../components/MarkdownHint';
import { TagSelect } from '../../../components/TagSelect';
import { Alert, Button, TextField } from '../../../components/ui';
import { QuestionTree, type RoomChoice } from './QuestionTree';
import { type GroupDraft, groupErrors, hasErrors, newNodeId, newQuestion, parseTreeJson } from './tree';

export const REMOVE_WARNING = 'Warning, deleting this question group will delete across all widgets, are you sure you want to remove?';
export const SAVE_FAILED = 'There was a problem updating this question group.';
const SAVED_BADGE_MS = 5000;

export type EditedGroup = QuestionGroup & { isNew: boolean };

function draftOf(g: EditedGroup): GroupDraft {
  const tree = parseTreeJson(g.treeJson);
  return {
    label: g.label,
    shortcut: g.shortcut,
    auto: g.auto,
    prompt: g.prompt,
    tag: g.tag ?? '',
    tree: g.isNew && tree.length === 0 ? [newQuestion()] : tree,
  };
}

export function GroupEditor({
  ceId,
  group,
  rooms,
  tags,
  onSaved,
  onCancel,
  onRemove,
  setDirty,
}: {
  ceId: string;
  group: EditedGroup;
  rooms: RoomChoice[];
  /** The tags of the account's widgets (a group is shared by all of them). */
  tags: readonly string[];
  onSaved: (saved: QuestionGroup) => Promise<void>;
  onCancel: () => void;
  onRemove: () => void;
  setDirty: (dirty: boolean) => void;
}) {
  const initial = useMemo(() => draftOf(group), [group]);
  const [draft, setDraft] = useState<GroupDraft>(initial);
  // A save answers the group as stored (normalised): the form starts again from it.
  useEffect(() => setDraft(initial), [initial]);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);

  const normalised = useMemo<TreeNode[]>(() => normaliseTree(draft.tree, newNodeId), [draft.tree]);
  const errors = groupErrors({ ...draft, tree: normalised });
  const edited = JSON.stringify(draft) !== JSON.stringify(initial);
  // A new group can be saved as it is; it counts as unsaved work only once something was typed.
  const changed = group.isNew || edited;
  useEffect(() => setDirty(edited), [edited, setDirty]);
  useEffect(() => {
    if (savedAt === null) return undefined;
    const timer = window.setTimeout(() => setSavedAt(null), SAVED_BADGE_MS);
    return () => window.clearTimeout(timer);
  }, [savedAt]);

  const set = (patch: Partial<GroupDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setFormError(null);
  };
  const shown = tried ? errors : { nodes: {} };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    setFailure(null);
    if (hasErrors(errors) || !changed) {
      setFormError('Error: check for errors above.');
      return;
    }
    setBusy(true);
    try {
      const saved = await saveQuestionGroup(ceId, {
        uid: group.uid,
        accountId: group.accountId,
        label: draft.label,
        shortcut: draft.shortcut.trim(),
        auto: draft.auto,
        prompt: draft.prompt,
        tag: draft.tag,
        treeJson: JSON.stringify(normalised),
      });
      setDirty(false);
      setSavedAt(Date.now());
      setTried(false);
      await onSaved(saved);
    } catch (err) {
      // A 403 has already ended the session; anything else is said here.
      if (!(err instanceof ApiError && err.status === 403)) setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card settings-section qg-editor" onSubmit={submit} noValidate>
      <div className="section-head">
        <h2>{group.isNew ? 'New Question Group' : group.label || 'New Question Group'}</h2>
        {savedAt !== null && (
          <span className="saved-badge" role="status">
            <CheckIcon /> Saved
          </span>
        )}
      </div>
      {failure && (
        <Alert kind="error" title={SAVE_FAILED} onDismiss={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      <div className="settings-grid">
        <TextField
          label="Label"
          value={draft.label}
          maxLength={QUESTION_GROUP_LIMITS.labelChars}
          onChange={(e) => set({ label: e.target.value })}
          error={shown.label ?? null}
        />
        <TextField
          label="Shortcut"
          value={draft.shortcut}
          maxLength={QUESTION_GROUP_LIMITS.shortcutChars}
          onChange={(e) => set({ shortcut: e.target.value.replace(/\s/g, '') })}
          hint={
            <>
              Start it from Slack with <code className="inline-code">/parley qg N {draft.shortcut || '{shortcut}'}</code>.
            </>
          }
        />
      </div>
      <label className="switch-row">
        <input type="checkbox" checked={draft.auto} onChange={(e) => set({ auto: e.target.checked })} />
        <span className="switch-row__text">
          Trigger Automatically
          <span className="switch-row__hint">
            Ask these questions at the start of every new conversation. Only one group can do this; checking it here unchecks the other.
          </span>
        </span>
      </label>
      <div className={`field${shown.prompt ? ' field--invalid' : ''}`}>
        <label className="field__label" htmlFor="qg-prompt">
          Prompt
        </label>
        <textarea
          id="qg-prompt"
          className="field__input"
          rows={2}
          value={draft.prompt}
          placeholder="Hi! A few quick questions so we can help you faster."
          aria-invalid={shown.prompt ? true : undefined}
          onChange={(e) => set({ prompt: e.target.value })}
        />
        {shown.prompt ? (
          <p className="field__error">{shown.prompt}</p>
        ) : (
          <p className="field__hint">
            Shown above the first question. <MarkdownHint />
          </p>
        )}
      </div>
      <TagSelect
        id="qg-tag"
        value={draft.tag}
        tags={tags}
        onChange={(tag) => set({ tag })}
        hint="Added to the conversation when the visitor answers the first question, in widgets whose Tags list has it."
      />
      <fieldset className="qtree" aria-label="Questions and answers">
        <QuestionTree tree={draft.tree} onChange={(tree) => set({ tree })} errors={shown.nodes} rooms={rooms} />
        {tried && errors.tree && <p className="field__error">{errors.tree}</p>}
        {draft.tree.length === 0 && (
          <button type="button" className="link-button" onClick={() => set({ tree: [newQuestion()] })}>
            Add a question
          </button>
        )}
      </fieldset>
      {formError && (
        <p className="qg-editor__error" role="alert">
          {formError}
        </p>
      )}
      <div className="settings-actions">
        <Button type="submit" busy={busy}>
          {busy ? 'Saving...' : 'Save Changes'}
        </Button>
        {group.isNew ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : (
          <button type="button" className="btn btn--ghost-danger" onClick={onRemove}>
            Remove
          </button>
        )}
      </div>
    </form>
  );
}
