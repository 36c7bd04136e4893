/**
 * #/settings/{ceId}/triggers: the minimum delay between triggers and an accordion of triggers (spec sections 2, 4
 * and 5). Each trigger saves on its own (the stored set with that one trigger changed); removing a saved trigger
 * saves at once, removing a new one does not.
 */
import { useEffect, useMemo, useState } from 'react';
import { TRIGGER_LIMITS, TRIGGER_MESSAGES } from '../../../../../server/shared/triggers';
import { PlusIcon } from '../../../components/icons';
import { Button } from '../../../components/ui';
import { LockedState } from '../gated/LockedState';
import { SaveButton, useSaveButton } from '../saveButton';
import type { SettingsTabProps } from '../types';
import { draftOf, isChanged, newDraft, nextSet, savedSet, type TriggerDraft } from './drafts';
import { TriggerPanel } from './TriggerPanel';

export default function TriggersTab({ ce, locked, save, setDirty }: SettingsTabProps) {
  const saved = useMemo(() => savedSet(ce.triggerJson), [ce.triggerJson]);
  const [drafts, setDrafts] = useState<TriggerDraft[]>(() => saved.triggers.map(draftOf));
  const [minDelay, setMinDelay] = useState(String(saved.minDelay));
  const [open, setOpen] = useState<string | null>(null);
  const delayButton = useSaveButton();

  const minDelayValid = /^\d{1,4}$/.test(minDelay);
  const dirty = drafts.some((d) => isChanged(d, saved)) || drafts.length !== saved.triggers.length || minDelay !== String(saved.minDelay);
  useEffect(() => setDirty(dirty), [dirty, setDirty]);

  if (locked) {
    return (
      <LockedState feature="triggers" title="Start conversations with triggers">
        A trigger shows a message next to the chat button after a visitor spent some seconds on the pages you choose.
      </LockedState>
    );
  }

  const delayNumber = minDelayValid ? Number(minDelay) : saved.minDelay;

  const saveTrigger = async (uid: string): Promise<boolean> => {
    const draft = drafts.find((d) => d.uid === uid) ?? null;
    const next = nextSet(saved, uid, draft, delayNumber);
    const ok = await save({ triggerJson: JSON.stringify(next) });
    if (ok) {
      const stored = next.triggers.find((t) => t.uid === uid);
      setDrafts((list) => list.map((d) => (d.uid === uid && stored ? draftOf(stored) : d)));
    }
    return ok;
  };

  const remove = async (draft: TriggerDraft) => {
    if (draft.isNew) {
      setDrafts((list) => list.filter((d) => d.uid !== draft.uid));
      return;
    }
    const ok = await save({ triggerJson: JSON.stringify(nextSet(saved, draft.uid, null, saved.minDelay)) });
    if (ok) setDrafts((list) => list.filter((d) => d.uid !== draft.uid));
  };

  const add = () => {
    const draft = newDraft(saved.matchType);
    setDrafts((list) => [...list, draft]);
    setOpen(draft.uid);
  };

  return (
    <div className="settings-form triggers">
      <section className="card settings-section">
        <h2>Triggers</h2>
        <p className="settings-section__intro muted">
          A trigger shows a message beside the chat button after a visitor spent some seconds on a page you name. A visitor sees at most one
          trigger per minimum delay.
        </p>
        <form
          className="triggers__delay"
          onSubmit={(event) => {
            event.preventDefault();
            if (minDelayValid) void delayButton.run(() => save({ triggerJson: JSON.stringify({ ...saved, minDelay: Number(minDelay) }) }));
          }}
        >
          <div className={`field${minDelayValid ? '' : ' field--invalid'}`}>
            <label className="field__label" htmlFor="trigger-min-delay">
              Minimum delay between triggers (minutes)
            </label>
            <input
              id="trigger-min-delay"
              className="field__input"
              inputMode="numeric"
              maxLength={TRIGGER_LIMITS.minDelayChars}
              value={minDelay}
              aria-invalid={minDelayValid ? undefined : true}
              onChange={(e) => setMinDelay(e.target.value.replace(/\D/g, '').slice(0, TRIGGER_LIMITS.minDelayChars))}
            />
            {!minDelayValid && <p className="field__error">{TRIGGER_MESSAGES.minDelay}</p>}
          </div>
          <SaveButton
            state={delayButton.state}
            disabled={!minDelayValid || (minDelay === String(saved.minDelay) && delayButton.state === 'idle')}
          />
        </form>
      </section>

      {drafts.length === 0 ? (
        <section className="card empty-state">
          <h2>No triggers yet</h2>
          <p className="muted">Greet visitors who linger on your pricing page, or offer help on the checkout page.</p>
          <Button onClick={add}>
            <PlusIcon /> Add new trigger
          </Button>
        </section>
      ) : (
        <>
          <div className="triggers__list">
            {drafts.map((d) => (
              <TriggerPanel
                key={d.uid}
                draft={d}
                open={open === d.uid}
                changed={isChanged(d, saved)}
                onToggle={() => setOpen((o) => (o === d.uid ? null : d.uid))}
                onChange={(next) => setDrafts((list) => list.map((x) => (x.uid === d.uid ? next : x)))}
                onSave={() => saveTrigger(d.uid)}
                onRemove={() => void remove(d)}
              />
            ))}
          </div>
          <div>
            <Button variant="secondary" onClick={add}>
              <PlusIcon /> Add new trigger
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
