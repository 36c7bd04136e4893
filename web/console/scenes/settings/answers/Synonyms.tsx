/** The words the widget's search takes as the same: one group a line ("pw, password, passcode"). */
import { type FormEvent, useEffect, useId, useState } from 'react';
import { SYNONYM_LIMITS } from '../../../../../server/shared/articles';
import { messageOf } from '../../../api';
import { getSynonyms, saveSynonyms } from '../../../api/articles';
import { Button, PageLoader } from '../../../components/ui';
import { SaveButton, useSaveButton } from '../saveButton';

export function Synonyms({ ceId, showError, onDone }: { ceId: string; showError: (message: string) => void; onDone: () => void }) {
  const [text, setText] = useState<string | null>(null);
  const { state, run } = useSaveButton();
  const id = useId();
  const hintId = useId();

  useEffect(() => {
    let live = true;
    getSynonyms(ceId).then(
      (groups) => live && setText(groups.join('\n')),
      (err: unknown) => {
        if (!live) return;
        showError(messageOf(err));
        setText('');
      },
    );
    return () => {
      live = false;
    };
  }, [ceId, showError]);

  if (text === null) return <PageLoader label="Loading synonyms…" />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      try {
        const saved = await saveSynonyms(ceId, text.split('\n'));
        setText(saved.join('\n'));
        return true;
      } catch (err) {
        showError(messageOf(err));
        return false;
      }
    });
  };

  return (
    <div className="settings-form answers">
      <form className="card settings-section" onSubmit={submit}>
        <div className="section-head">
          <h2>Synonyms</h2>
          <Button variant="ghost" onClick={onDone}>
            Back to articles
          </Button>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={id}>
            Words that mean the same, one group per line
          </label>
          <textarea
            id={id}
            className="field__input answers__synonyms"
            rows={10}
            value={text}
            placeholder={'pw, password, passcode\n2fa, two-factor, authenticator'}
            aria-describedby={hintId}
            onChange={(e) => setText(e.target.value)}
          />
          <p className="field__hint" id={hintId}>
            Separate the words of a group with commas. A visitor who writes one of them finds the articles that use another. At most{' '}
            {SYNONYM_LIMITS.groups} lines of {SYNONYM_LIMITS.groupChars} characters.
          </p>
        </div>
        <div className="answers-editor__actions">
          <SaveButton state={state} />
        </div>
      </form>
    </div>
  );
}
