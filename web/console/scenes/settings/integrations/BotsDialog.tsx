/**
 * The 'Configure Bots and Users' modal (spec sections 2, 4 and 8): the workspace's bots (all users with the
 * toggle) on the left with Add, the users added to every new conversation on the right with Remove. Without
 * the users:read permission an info alert links to the permissions page and the tables are dimmed.
 */
import { useCallback, useEffect, useState } from 'react';
import type { BotUserView, SlackUserView } from '../../../../../server/shared/bots';
import { ApiError, messageOf } from '../../../api';
import { addBotUser, listBotUsers, listSlackUsers, removeBotUser } from '../../../api/settingsFeatures';
import { Dialog } from '../../../components/Dialog';
import { Alert, Button } from '../../../components/ui';

const SUPPORT_HINT = 'If this keeps happening, contact Parley support.';

export function BotsDialog({
  ceId,
  open,
  onClose,
  onChanged,
}: {
  ceId: string;
  open: boolean;
  onClose: () => void;
  onChanged: (bots: BotUserView[]) => void;
}) {
  const [users, setUsers] = useState<SlackUserView[] | null>(null);
  const [bots, setBots] = useState<BotUserView[]>([]);
  const [missingScope, setMissingScope] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reloadBots = useCallback(async () => {
    const list = await listBotUsers(ceId);
    setBots(list);
    onChanged(list);
  }, [ceId, onChanged]);

  useEffect(() => {
    if (!open) return;
    setError(null);
    setMissingScope(false);
    listSlackUsers(ceId).then(setUsers, (err: unknown) => {
      setUsers([]);
      if (err instanceof ApiError && err.code === 'missing_scope') setMissingScope(true);
      else setError(`${messageOf(err)} ${SUPPORT_HINT}`);
    });
    reloadBots().catch((err: unknown) => setError(`${messageOf(err)} ${SUPPORT_HINT}`));
  }, [open, ceId, reloadBots]);

  const act = async (key: string, call: () => Promise<unknown>) => {
    setBusy(key);
    setError(null);
    try {
      await call();
      await reloadBots();
    } catch (err) {
      setError(`${messageOf(err)} ${SUPPORT_HINT}`);
    } finally {
      setBusy(null);
    }
  };

  const chosen = new Set(bots.map((b) => b.userID));
  const shown = (users ?? []).filter((u) => (showAll || u.is_bot) && !chosen.has(u.id));

  return (
    <Dialog open={open} title="Configure Bots and Users" onClose={onClose}>
      <div className="bots">
        {missingScope && (
          <Alert kind="info" title="Expanded permissions needed">
            Parley needs permission to see the bots and people of your Slack workspace.{' '}
            <a href="/app/#/permissions">Authorize expanded permissions</a>
          </Alert>
        )}
        {error && (
          <Alert kind="error" title="Error:" onDismiss={() => setError(null)}>
            {error}
          </Alert>
        )}
        <div className={`bots__tables${missingScope ? ' bots__tables--dimmed' : ''}`} aria-disabled={missingScope || undefined}>
          <section className="bots__pane" aria-labelledby="bots-available">
            <div className="bots__pane-head">
              <h3 id="bots-available">Available bot users</h3>
              <label className="switch bots__all">
                <input
                  type="checkbox"
                  role="switch"
                  checked={showAll}
                  aria-checked={showAll}
                  disabled={missingScope}
                  onChange={(e) => setShowAll(e.target.checked)}
                />
                <span className="switch__track" aria-hidden="true" />
                Show all users, not just bots
              </label>
            </div>
            <table className="table table--compact">
              <tbody>
                {missingScope ? (
                  <tr>
                    <td className="muted">Shown once Parley has the permission.</td>
                  </tr>
                ) : users === null ? (
                  <tr>
                    <td className="muted">Loading…</td>
                  </tr>
                ) : shown.length === 0 ? (
                  <tr>
                    <td className="muted">{showAll ? 'Everyone is added already.' : 'No bots to add. Show all users to add people.'}</td>
                  </tr>
                ) : (
                  shown.map((u) => (
                    <tr key={u.id}>
                      <td>
                        <strong>{u.real_name || u.name}</strong> <span className="muted">@{u.name}</span>
                      </td>
                      <td className="table__actions">
                        <Button
                          variant="secondary"
                          className="btn--small"
                          busy={busy === u.id}
                          disabled={missingScope || busy !== null}
                          onClick={() =>
                            void act(u.id, () => addBotUser(ceId, { userID: u.id, name: u.name, botID: u.profile.bot_id ?? '' }))
                          }
                          aria-label={`${u.is_bot ? 'Add Bot' : 'Add'} ${u.name}`}
                        >
                          {u.is_bot ? 'Add Bot' : 'Add'}
                        </Button>
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </section>
          <section className="bots__pane" aria-labelledby="bots-chosen">
            <div className="bots__pane-head">
              <h3 id="bots-chosen">Added to new conversations</h3>
            </div>
            <table className="table table--compact">
              <tbody>
                {bots.length === 0 ? (
                  <tr>
                    <td className="muted">Nobody yet.</td>
                  </tr>
                ) : (
                  bots.map((b) => (
                    <tr key={b.ID}>
                      <td>
                        <strong>@{b.name}</strong> <span className="muted">{b.botID ? 'bot' : 'user'}</span>
                      </td>
                      <td className="table__actions">
                        <Button
                          variant="secondary"
                          className="btn--small"
                          busy={busy === b.ID}
                          disabled={busy !== null}
                          onClick={() => void act(b.ID, () => removeBotUser(ceId, { ID: b.ID, name: b.name }))}
                          aria-label={`Remove ${b.name}`}
                        >
                          Remove
                        </Button>
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </section>
        </div>
        <div className="dialog__actions">
          <Button onClick={onClose}>Done</Button>
        </div>
      </div>
    </Dialog>
  );
}
