import { expect } from 'chai';
import { verifyPassword } from '../../server/commands/passwords';
import { createSession, resolveSession } from '../../server/commands/sessions';
import { acceptInvitation, deleteUser, findInvitation, inviteUser, listUsers, toggleAdmin } from '../../server/commands/teamUsers';
import type { ValidationError } from '../../server/errors';
import { TERMS_VERSION } from '../../server/shared/constants';
import { TEAM_MESSAGES } from '../../server/shared/teamMessages';
import { createUserInDb, createWidgetInDb, uniqueEmail } from '../factories';
import { useStore } from './helpers';

describe('teamUsers', () => {
  const store = useStore();
  const deps = () => ({ models: store.models, mailer: store.mailer, publicUrl: 'https://parley.example' });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as ValidationError,
    );
  const tokenOf = (link: string | undefined) => new URL((link ?? '').replace('#/', '')).searchParams.get('token') ?? '';

  it('invites by e-mail: a non-admin without password in the same account, mailed a 7-day one-time link', async () => {
    const { user: admin } = await createUserInDb(store);
    const email = uniqueEmail('invitee');
    const invited = await inviteUser(deps(), admin, `  ${email.toUpperCase()} `);
    expect(invited).to.include({ email, admin: false, passwordHash: null });
    expect(String(invited.accountId)).to.equal(String(admin.accountId));
    const mail = await store.mailer.outbox.latestTo(email);
    const token = tokenOf(mail?.links.find((l) => l.includes('accept-invite')));
    const found = await findInvitation(store.models, token);
    expect(found.email).to.equal(email);
    expect((found.expiresAt.getTime() - Date.now()) / 86_400_000).to.be.within(6.99, 7);
    expect((await listUsers(store.models, admin.accountId)).map((u) => u.email)).to.deep.equal([admin.email, email]);
  });

  it('refuses an invalid and a taken e-mail with the spec’s messages', async () => {
    const { user: admin } = await createUserInDb(store);
    expect((await refusal(inviteUser(deps(), admin, 'not an email')))?.message).to.equal(TEAM_MESSAGES.invalidEmail);
    expect((await refusal(inviteUser(deps(), admin, admin.email)))?.message).to.equal(TEAM_MESSAGES.userExists);
  });

  it('accepting sets the password and the terms once; the link then stops working', async () => {
    const { user: admin } = await createUserInDb(store);
    const email = uniqueEmail('joiner');
    await inviteUser(deps(), admin, email);
    const token = tokenOf((await store.mailer.outbox.latestTo(email))?.links.find((l) => l.includes('accept-invite')));
    const joined = await acceptInvitation(store.models, token, 'my own password', store.config.passwordHashing);
    expect(joined.ActiveTOSPP).to.equal(TERMS_VERSION);
    expect(joined.privacyPolicyVersion).to.equal(TERMS_VERSION);
    expect(await verifyPassword(joined.passwordHash, 'my own password', store.config.passwordHashing)).to.equal(true);
    expect((await refusal(acceptInvitation(store.models, token, 'again', store.config.passwordHashing)))?.message).to.equal(
      TEAM_MESSAGES.invitationInvalid,
    );
    expect((await refusal(findInvitation(store.models, token)))?.message).to.equal(TEAM_MESSAGES.invitationInvalid);
  });

  it('toggles a teammate’s admin flag, never the actor’s own nor the last admin’s, and ends a demoted admin’s sessions', async () => {
    const { user: admin, account } = await createUserInDb(store);
    const { user: mate } = await createUserInDb(store, { account, admin: false });
    expect((await refusal(toggleAdmin(store.models, admin, admin)))?.message).to.equal(TEAM_MESSAGES.notYourself);
    const promoted = await toggleAdmin(store.models, admin, mate);
    expect(promoted.admin).to.equal(true);
    const session = await createSession(store.models, store.config.jwtSecret, mate._id);
    const demoted = await toggleAdmin(store.models, admin, promoted);
    expect(demoted.admin).to.equal(false);
    expect(await resolveSession(store.models, store.config.jwtSecret, session)).to.equal(null);
    // Two admins: one demotes the other, and then the one left cannot be demoted: the account keeps an admin.
    const { user: soleAdmin, account: solo } = await createUserInDb(store);
    const { user: other } = await createUserInDb(store, { account: solo, admin: true });
    await toggleAdmin(store.models, soleAdmin, other);
    const last = await store.models.User.findById(soleAdmin._id);
    const otherNow = await store.models.User.findById(other._id);
    if (!last || !otherNow) throw new Error('gone');
    expect((await refusal(toggleAdmin(store.models, otherNow, last)))?.message).to.equal(TEAM_MESSAGES.lastAdmin);
  });

  it('deletes a teammate who is not an admin: sessions and invitations end, their widgets pass to the actor', async () => {
    const { user: admin, account } = await createUserInDb(store);
    const { user: mate } = await createUserInDb(store, { account, admin: false });
    const widget = await createWidgetInDb(store, mate);
    const session = await createSession(store.models, store.config.jwtSecret, mate._id);
    expect((await refusal(deleteUser(store.models, admin, admin)))?.message).to.equal(TEAM_MESSAGES.deleteYourself);
    const { user: otherAdmin } = await createUserInDb(store, { account, admin: true });
    expect((await refusal(deleteUser(store.models, admin, otherAdmin)))?.message).to.equal(TEAM_MESSAGES.deleteAdmin);
    await deleteUser(store.models, admin, mate);
    expect(await store.models.User.exists({ _id: mate._id })).to.equal(null);
    expect(await resolveSession(store.models, store.config.jwtSecret, session)).to.equal(null);
    expect(String((await store.models.ChatEndpoint.findById(widget._id))?.userId)).to.equal(String(admin._id));
  });
});
