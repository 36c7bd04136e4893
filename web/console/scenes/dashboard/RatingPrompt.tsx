/** The satisfaction prompt (0 to 10); dismissing records -1. A saved answer hides it and reloads the user. */
import { useState } from 'react';
import { RATING_DISMISS, RATING_MAX, RATING_MIN } from '../../../../server/shared/constants';
import { rate } from '../../api/widgets';
import { CloseIcon } from '../../components/icons';
import { Alert } from '../../components/ui';
import { useSession } from '../../session/session';

const SAVE_ERROR = 'Error saving rating, contact support';
const SCALE = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

export function RatingPrompt() {
  const { reload } = useSession();
  const [hidden, setHidden] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (hidden) return null;

  const save = async (value: number) => {
    setBusy(true);
    setError(null);
    try {
      await rate(value);
      setHidden(true);
      await reload().catch(() => undefined);
    } catch {
      setError(SAVE_ERROR);
      setBusy(false);
    }
  };

  return (
    <section className="card rating" aria-labelledby="rating-title">
      <button type="button" className="icon-btn rating__close" aria-label="Dismiss" onClick={() => save(RATING_DISMISS)} disabled={busy}>
        <CloseIcon />
      </button>
      <h2 id="rating-title" className="rating__title">
        How likely are you to recommend Parley to a friend or colleague?
      </h2>
      <fieldset className="rating__scale" aria-label="Rating from 0 to 10">
        {SCALE.map((value) => (
          <button key={value} type="button" className="rating__value" onClick={() => save(value)} disabled={busy}>
            {value}
          </button>
        ))}
      </fieldset>
      <div className="rating__ends muted" aria-hidden="true">
        <span>Not likely</span>
        <span>Very likely</span>
      </div>
      {error && <Alert kind="error">{error}</Alert>}
    </section>
  );
}
