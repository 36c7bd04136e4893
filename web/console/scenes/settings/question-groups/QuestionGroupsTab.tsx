/**
 * #/settings/{ceId}/question-groups: a row of cards (one per group of the account, shared by all its widgets)
 * plus an add card, and the editor of the selected group (spec sections 2 and 4).
 */
import { useCallback, useEffect, useState } from 'react';
import { QUESTION_GROUP_LIMITS } from '../../../../../server/shared/questionGroups';
import { messageOf } from '../../../api';
import { deleteQuestionGroup, listQuestionGroups, type QuestionGroup } from '../../../api/settingsFeatures';
import { useConfirm } from '../../../components/ConfirmDialog';
import { PlusIcon } from '../../../components/icons';
import { Button, PageLoader } from '../../../components/ui';
import { widgetName } from '../../../lib/rules';
import { LockedState } from '../gated/LockedState';
import type { SettingsTabProps } from '../types';
import { type EditedGroup, GroupEditor, REMOVE_WARNING } from './GroupEditor';
import { randomId } from './tree';

/** Prompts are stored as a little HTML (a, strong, b, br): the cards show their text. */
function plainText(html: string): string {
  return new DOMParser().parseFromString(html.replace(/<br\s*\/?>/gi, ' '), 'text/html').body.textContent ?? '';
}

export default function QuestionGroupsTab({ ce, user, locked, showError, setDirty }: SettingsTabProps) {
  const [groups, setGroups] = useState<QuestionGroup[] | null>(null);
  const [selected, setSelected] = useState<EditedGroup | null>(null);
  const confirm = useConfirm();
  // The editor's unsaved edits: switching to another group (or a new one) asks first, as leaving the tab does.
  const [editorDirty, setEditorDirty] = useState(false);
  const markDirty = useCallback(
    (dirty: boolean) => {
      setEditorDirty(dirty);
      setDirty(dirty);
    },
    [setDirty],
  );
  const rooms = user.ces.filter((c) => c.Step === 3).map((c) => ({ uuid: c.Uuid, name: widgetName(c) }));
  // This widget's tags first, then the other widgets' (the server takes any tag of the account's widgets).
  const accountTags = [...new Set([...(ce.tags ?? []), ...user.ces.flatMap((c) => c.tags ?? [])])];

  const load = useCallback(async () => {
    const list = await listQuestionGroups(ce.Id);
    setGroups(list);
    return list;
  }, [ce.Id]);

  useEffect(() => {
    if (locked) return;
    load().then(
      (list) => {
        const first = list[0];
        if (first) setSelected({ ...first, isNew: false });
      },
      (err: unknown) => {
        showError(messageOf(err));
        setGroups([]);
      },
    );
  }, [load, locked, showError]);

  if (locked) {
    return (
      <LockedState feature="question groups" title="Ask visitors a few questions first">
        Question groups ask visitors questions with answer buttons before or during a chat, and send them where their answers lead.
      </LockedState>
    );
  }
  if (groups === null) return <PageLoader label="Loading question groups…" />;

  const switchTo = (next: EditedGroup | null) => {
    const go = () => {
      markDirty(false);
      setSelected(next);
    };
    if (!editorDirty) {
      go();
      return;
    }
    confirm.ask({
      title: 'Leave without saving?',
      body: <p>This question group has unsaved changes. They are lost if you open another one.</p>,
      confirmLabel: 'Leave without saving',
      danger: true,
      action: async () => {
        confirm.close();
        go();
      },
    });
  };

  const addGroup = () =>
    switchTo({
      uid: randomId(QUESTION_GROUP_LIMITS.groupUidChars),
      accountId: user.accountId,
      label: '',
      shortcut: '',
      auto: false,
      prompt: '',
      tag: '',
      treeJson: '[]',
      isNew: true,
    });

  const remove = (group: EditedGroup) =>
    confirm.ask({
      title: 'Remove question group?',
      body: <p>{REMOVE_WARNING}</p>,
      confirmLabel: 'Remove',
      danger: true,
      action: async () => {
        await deleteQuestionGroup(ce.Id, group.uid);
        confirm.close();
        markDirty(false);
        const list = await load();
        const first = list[0];
        setSelected(first ? { ...first, isNew: false } : null);
      },
    });

  const cards = selected?.isNew ? [...groups, selected] : groups;
  return (
    <div className="settings-form question-groups">
      {cards.length === 0 ? (
        <section className="card empty-state">
          <h2>Add your first question group</h2>
          <p className="muted">
            Ask visitors a few questions with answer buttons, and send them where their answers lead: a form, a custom answer, or another
            room.
          </p>
          <Button onClick={addGroup}>
            <PlusIcon /> New Question Group
          </Button>
        </section>
      ) : (
        <ul className="qg-cards">
          {cards.map((g) => (
            <li key={g.uid} className="qg-cards__item">
              <button
                type="button"
                className={`qg-card${selected?.uid === g.uid ? ' qg-card--selected' : ''}`}
                aria-current={selected?.uid === g.uid || undefined}
                onClick={() => {
                  if (selected?.uid !== g.uid) switchTo({ ...g, isNew: false });
                }}
              >
                <strong className="qg-card__label">{g.label || 'New Question Group'}</strong>
                {g.shortcut && <code className="inline-code">{g.shortcut}</code>}
                <span className={`qg-card__mode${g.auto ? ' qg-card__mode--auto' : ''}`}>
                  {g.auto ? 'Triggered Automatically' : 'Manually'}
                </span>
                <span className="qg-card__prompt muted">{plainText(g.prompt)}</span>
              </button>
            </li>
          ))}
          {!selected?.isNew && (
            <li className="qg-cards__item">
              <button type="button" className="qg-card qg-card--add" onClick={addGroup}>
                <PlusIcon />
                <span>New Question Group</span>
              </button>
            </li>
          )}
        </ul>
      )}
      {selected && (
        <GroupEditor
          key={selected.uid}
          ceId={ce.Id}
          group={selected}
          rooms={rooms}
          tags={accountTags}
          setDirty={markDirty}
          onCancel={() => {
            markDirty(false);
            const first = groups[0];
            setSelected(first ? { ...first, isNew: false } : null);
          }}
          onRemove={() => remove(selected)}
          onSaved={async (saved) => {
            await load();
            setSelected({ ...saved, isNew: false });
          }}
        />
      )}
      {confirm.dialog}
    </div>
  );
}
