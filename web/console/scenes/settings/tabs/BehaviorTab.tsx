/**
 * Presence and widget behavior (spec sections 2, 3 Behavior, transcripts and webhooks, avatars): the form of
 * BEHAVIOR_SECTIONS (behaviorFields.tsx, one description per setting) with one Save Changes for the page.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { MAX_CONCURRENT_LIMIT } from '../../../../../server/shared/settings';
import { messageOf } from '../../../api';
import { toggleWidget } from '../../../api/settings';
import { BEHAVIOR_SECTIONS, type BehaviorContext } from '../behaviorFields';
import { draftKeys, FieldSections, hasProblem } from '../fields';
import { canReadHistory, useDraft } from '../form';
import { SaveButton, useSaveButton } from '../saveButton';
import type { SettingsTabProps } from '../types';

const KEYS = draftKeys(BEHAVIOR_SECTIONS);

export default function BehaviorTab({ ce, save, replaceCe, setDirty, showError, clearError }: SettingsTabProps) {
  const draft = useDraft(ce, KEYS, setDirty);
  const v = { ...ce, ...draft.values };
  const button = useSaveButton();
  const [toggling, setToggling] = useState(false);
  const [limitInput, setLimitInput] = useState(String(v.maxConcurrentConvos));
  useEffect(() => setLimitInput((text) => (text === '' ? text : String(v.maxConcurrentConvos))), [v.maxConcurrentConvos]);

  const toggle = async () => {
    setToggling(true);
    clearError();
    try {
      replaceCe(await toggleWidget(ce.Id, ce.off));
    } catch (err) {
      showError(messageOf(err));
    } finally {
      setToggling(false);
    }
  };

  const setLimit = (text: string) => {
    // Only whole numbers; an empty input is allowed while editing (spec section 5).
    if (!/^\d{0,4}$/.test(text)) return;
    setLimitInput(text);
    if (text !== '') draft.set('maxConcurrentConvos', Math.min(Number(text), MAX_CONCURRENT_LIMIT));
  };

  const c: BehaviorContext = {
    v,
    ce,
    set: draft.set,
    patch: draft.patch,
    history: canReadHistory(ce),
    toggling,
    toggle: () => void toggle(),
    limitInput,
    setLimitInput,
    setLimit,
    replaceCe,
  };
  // Web addresses, the e-mail address, filters and country codes are checked as typed, by the rules the API applies.
  const invalid = hasProblem(BEHAVIOR_SECTIONS, c);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    await button.run(() => save(draft.changes));
  };

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <FieldSections sections={BEHAVIOR_SECTIONS} c={c} />

      <div className="settings-actions">
        <SaveButton state={button.state} disabled={invalid || (!draft.dirty && button.state === 'idle')} />
        {draft.dirty && <span className="muted">{invalid ? 'Fix the fields marked above to save' : 'Unsaved changes'}</span>}
      </div>
    </form>
  );
}
