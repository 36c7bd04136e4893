/** The team avatar of the Behavior tab: upload with progress (spec section 8), preview, removal. */
import { useRef, useState } from 'react';
import { AVATAR_REMOVAL_REFUSED, TEAM_AVATAR_MAX_BYTES } from '../../../../server/shared/settings';
import { messageOf } from '../../api';
import { removeTeamAvatar, uploadTeamAvatar } from '../../api/settings';
import type { SettingsTabProps } from './types';

export function TeamAvatar({
  ce,
  inUse,
  replaceCe,
}: {
  ce: SettingsTabProps['ce'];
  inUse: boolean;
  replaceCe: (ce: SettingsTabProps['ce']) => void;
}) {
  const [status, setStatus] = useState<{ text: string; error?: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > TEAM_AVATAR_MAX_BYTES) {
      setStatus({ text: 'The team avatar must be at most 1 MB.', error: true });
      return;
    }
    setBusy(true);
    setStatus({ text: 'Avatar uploading…' });
    try {
      const url = await uploadTeamAvatar(ce.Id, file, (percent) => setStatus({ text: `Avatar uploading: ${percent}%` }));
      replaceCe({ ...ce, teamAvatarUrl: url });
      setStatus({ text: 'Avatar uploaded successfully' });
    } catch (err) {
      const message = messageOf(err);
      setStatus({ text: message.startsWith('The team avatar') ? message : 'Avatar upload error. Contact Parley support!', error: true });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  const remove = async () => {
    if (inUse) {
      setStatus({ text: AVATAR_REMOVAL_REFUSED, error: true });
      return;
    }
    setBusy(true);
    try {
      replaceCe(await removeTeamAvatar(ce.Id));
      setStatus({ text: 'Avatar removed' });
    } catch (err) {
      setStatus({ text: messageOf(err), error: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="team-avatar">
      {ce.teamAvatarUrl ? (
        <img className="team-avatar__img" src={ce.teamAvatarUrl} alt="Team avatar" />
      ) : (
        <span className="team-avatar__img team-avatar__img--empty" aria-hidden="true" />
      )}
      <div className="team-avatar__body">
        <label className="btn btn--secondary btn--small team-avatar__upload">
          {ce.teamAvatarUrl ? 'Replace team avatar' : 'Upload team avatar'}
          <input
            ref={input}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            className="sr-only"
            disabled={busy}
            onChange={(e) => void upload(e.target.files?.[0])}
          />
        </label>
        {ce.teamAvatarUrl && (
          <button type="button" className="link-button link-button--danger" onClick={remove} disabled={busy}>
            Remove team avatar
          </button>
        )}
        <p className="field__hint">PNG, JPEG, GIF or WebP, at most 1 MB; square images look best.</p>
        {status && (
          <p className={status.error ? 'field__error' : 'team-avatar__status'} role="status">
            {status.text}
          </p>
        )}
      </div>
    </div>
  );
}
