/**
 * Users table (admins): invite by e-mail, toggle admin, delete with confirmation. An admin's own row has no
 * delete link and shows an image instead of its switch; an admin must be un-admined before deletion (spec §5).
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { type DashboardUserRow, NEVER_SIGNED_IN, TEAM_MESSAGES } from '../../../../server/shared/teamMessages';
import { ApiError } from '../../api';
import { deleteTeamUser, inviteTeamUser, listTeamUsers, toggleTeamAdmin } from '../../api/team';
import { useConfirm } from '../../components/ConfirmDialog';
import { Alert, Button, TextField } from '../../components/ui';
import { useUser } from '../../session/session';

/** The invite answer's wording, from the error catalogue. */
function inviteError(err: unknown): string {
  if (err instanceof ApiError && err.code === 'user_exists') return TEAM_MESSAGES.userExists;
  if (err instanceof ApiError && err.code === 'invalid_email') return TEAM_MESSAGES.invalidEmail;
  return TEAM_MESSAGES.unknownError;
}

const invited = (row: DashboardUserRow) => row.lastSignedInAt.startsWith(NEVER_SIGNED_IN.slice(0, 4));

export function UsersSection() {
  const me = useUser();
  const [rows, setRows] = useState<DashboardUserRow[] | null>(null);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [toggling, setToggling] = useState<string | null>(null);
  const { ask, close, dialog } = useConfirm();

  const load = useCallback(async () => {
    try {
      setRows(await listTeamUsers());
    } catch (err) {
      // Spec §8: fetching users fails silently, with a console message only.
      console.error('Could not load the users', err);
      setRows((was) => was ?? []);
    }
  }, []);
  useEffect(() => void load(), [load]);

  const invite = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setNotice(null);
    try {
      const row = await inviteTeamUser(email);
      setNotice({ kind: 'success', text: TEAM_MESSAGES.invited(row.email) });
      setEmail('');
      await load();
    } catch (err) {
      setNotice({ kind: 'error', text: inviteError(err) });
    } finally {
      setBusy(false);
    }
  };

  const toggle = async (row: DashboardUserRow) => {
    setToggling(row.Id);
    setNotice(null);
    try {
      await toggleTeamAdmin(row.Id);
      setNotice({ kind: 'success', text: TEAM_MESSAGES.updated });
      await load();
    } catch (err) {
      setNotice({ kind: 'error', text: err instanceof ApiError && err.status > 0 ? err.message : TEAM_MESSAGES.unknownError });
    } finally {
      setToggling(null);
    }
  };

  const remove = (row: DashboardUserRow) =>
    ask({
      title: 'Delete user?',
      body: (
        <p>
          <strong>{row.email}</strong> loses access to Parley at once. Widgets they set up stay and pass to you.
        </p>
      ),
      confirmLabel: 'Delete user',
      danger: true,
      action: async () => {
        try {
          await deleteTeamUser(row.Id);
        } catch (err) {
          // Spec §8: deleting fails silently, with a console message only.
          console.error('Could not delete the user', err);
        }
        close();
        await load();
      },
    });

  return (
    <section className="card account-section" aria-labelledby="users-title">
      <div className="account-section__head">
        <h2 id="users-title">Users</h2>
      </div>
      <p className="muted">
        Invite teammates to manage widgets and settings. Only admins see this Account page (plans, billing, invoices and usage), reports,
        these users, API keys and GDPR tools.
      </p>
      {notice && (
        <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>
          {notice.text}
        </Alert>
      )}
      <form className="team-invite" onSubmit={invite} noValidate>
        <TextField
          label="Invite by e-mail"
          type="email"
          name="invite-email"
          autoComplete="off"
          placeholder="teammate@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <Button type="submit" busy={busy} disabled={email.trim() === ''}>
          Invite
        </Button>
      </form>
      {rows === null ? (
        <p className="muted">Loading users…</p>
      ) : (
        <table className="team-table">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Status</th>
              <th scope="col">Admin</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const self = row.Id === me.Id;
              return (
                <tr key={row.Id}>
                  <td className="team-table__email">
                    {row.email}
                    {self && <span className="muted"> (you)</span>}
                  </td>
                  <td>
                    {invited(row) ? <span className="badge badge--needed">Invited</span> : <span className="badge badge--ok">Active</span>}
                  </td>
                  <td>
                    {self ? (
                      <img className="team-table__self" src={SHIELD} width={22} height={22} alt="Admin (you)" title="You are an admin" />
                    ) : (
                      <label className="team-switch">
                        <input
                          type="checkbox"
                          role="switch"
                          checked={row.admin}
                          aria-checked={row.admin}
                          disabled={toggling === row.Id}
                          onChange={() => void toggle(row)}
                          aria-label={`Admin: ${row.email}`}
                        />
                        <span aria-hidden="true" />
                      </label>
                    )}
                  </td>
                  <td className="team-table__actions">
                    {!self &&
                      (row.admin ? (
                        <span className="muted team-table__hint">Turn off admin to delete</span>
                      ) : (
                        <button type="button" className="link-button link-button--danger" onClick={() => remove(row)}>
                          Delete
                        </button>
                      ))}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {dialog}
    </section>
  );
}

/** A shield with a check: the image that replaces an admin's own switch (spec §5). */
const SHIELD = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#4f46e5" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z" fill="#eef0ff"/><path d="m9 12 2 2 4-4"/></svg>',
)}`;
