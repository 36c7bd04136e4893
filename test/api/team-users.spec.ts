import { expect } from 'chai';
import request from 'supertest';
import { NEVER_SIGNED_IN, TERMS_VERSION } from '../../server/shared/constants';
import type { DashboardUserRow } from '../../server/shared/team';
import { createUserInDb, signUpUser, uniqueEmail } from '../factories';
import { useServer } from '../helpers/app';

describe('team users (/v1/dashboard-admin/users) and invitations (/v1/p/invitations)', () => {
  const server = useServer();

  const as = (token: string) => ({
    get: () => request(server.url).get('/v1/dashboard-admin/users').set('Authorization', `Bearer ${token}`),
    post: (body: unknown) =>
      request(server.url)
        .post('/v1/dashboard-admin/users')
        .set('Authorization', `Bearer ${token}`)
        .send(body as object),
    put: (body: unknown) =>
      request(server.url)
        .put('/v1/dashboard-admin/users')
        .set('Authorization', `Bearer ${token}`)
        .send(body as object),
    del: (body: unknown) =>
      request(server.url)
        .delete('/v1/dashboard-admin/users')
        .set('Authorization', `Bearer ${token}`)
        .send(body as object),
  });
  const tokenIn = (text: string) => /token=([A-Za-z0-9]{64})/.exec(text)?.[1] ?? '';

  it('lists the account’s users with email, admin, lastSignedInAt and Id, and nothing more', async () => {
    const admin = await signUpUser(server);
    const rows: DashboardUserRow[] = (await as(admin.token).get().expect(200)).body;
    expect(rows).to.have.length(1);
    expect(rows[0]).to.have.keys('Id', 'email', 'admin', 'lastSignedInAt');
    expect(rows[0]).to.include({ email: admin.email, admin: true });
  });

  it('invites by e-mail: an invited row, and a mail whose one-time link lets the invitee set a password and sign in', async () => {
    const admin = await signUpUser(server);
    const email = uniqueEmail('invitee');
    const invited = (
      await as(admin.token)
        .post({ email: `  ${email.toUpperCase()} ` })
        .expect(201)
    ).body as DashboardUserRow;
    expect(invited).to.include({ email, admin: false, lastSignedInAt: NEVER_SIGNED_IN });
    const rows: DashboardUserRow[] = (await as(admin.token).get().expect(200)).body;
    expect(rows.map((r) => r.email)).to.deep.equal([admin.email, email]);

    const mail = await server.outbox.latestTo(email);
    expect(mail?.subject).to.equal('You are invited to Parley');
    expect(mail?.text).to.include(admin.email).and.include('7 days').and.include('/app/#/accept-invite?token=');
    const token = tokenIn(mail?.text ?? '');
    expect((await request(server.url).get(`/v1/p/invitations/${token}`).expect(200)).body.email).to.equal(email);

    await request(server.url).post('/v1/p/invitations/accept').send({ token, password: 'new team mate pw' }).expect(400);
    const accepted = await request(server.url)
      .post('/v1/p/invitations/accept')
      .send({ token, password: 'new team mate pw', acceptTerms: true })
      .expect(200);
    const me = await request(server.url)
      .get('/v1/users/current')
      .set('Authorization', `Bearer ${accepted.body.token as string}`)
      .expect(200);
    expect(me.body).to.include({ email, admin: false, ActiveTOSPP: TERMS_VERSION, accountId: me.body.account.Id });
    expect(me.body.accountId).to.equal((await server.models.User.findOne({ email: admin.email }))?.accountId.toHexString());
    await request(server.url).post('/v1/p/sessions').send({ email, password: 'new team mate pw' }).expect(200);

    const again = await request(server.url)
      .post('/v1/p/invitations/accept')
      .send({ token, password: 'another password', acceptTerms: true })
      .expect(400);
    expect(again.body.Message).to.match(/^This invitation link is invalid or has expired/);
  });

  it('refuses an expired invitation link', async () => {
    const admin = await signUpUser(server);
    const email = uniqueEmail('late');
    await as(admin.token).post({ email }).expect(201);
    const token = tokenIn((await server.outbox.latestTo(email))?.text ?? '');
    const invitee = await server.models.User.findOne({ email });
    await server.models.Invitation.updateMany({ userId: invitee?._id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    await request(server.url).get(`/v1/p/invitations/${token}`).expect(400);
    await request(server.url).post('/v1/p/invitations/accept').send({ token, password: 'whatever pw', acceptTerms: true }).expect(400);
  });

  it("answers the spec's invite errors verbatim: 'User already exists' and 'Invalid email'", async () => {
    const admin = await signUpUser(server);
    const other = await signUpUser(server);
    const exists = await as(admin.token).post({ email: other.email }).expect(400);
    expect(exists.body).to.deep.equal({ Message: 'User already exists', Error: 'user_exists' });
    const invalid = await as(admin.token).post({ email: 'not-an-address' }).expect(400);
    expect(invalid.body).to.deep.equal({ Message: 'Invalid email', Error: 'invalid_email' });
    await as(admin.token).post({}).expect(400);
    await as(admin.token).post({ email: 42 }).expect(400);
  });

  it('toggles the admin flag of a teammate both ways', async () => {
    const admin = await createUserInDb(server);
    const mate = await createUserInDb(server, { account: admin.account, admin: false });
    const on = (await as(admin.token).put({ id: mate.user.id }).expect(200)).body as DashboardUserRow;
    expect(on).to.include({ Id: mate.user.id, admin: true });
    const off = (await as(admin.token).put({ id: mate.user.id }).expect(200)).body as DashboardUserRow;
    expect(off.admin).to.equal(false);
  });

  it('refuses to change your own admin flag, so an account always keeps an admin', async () => {
    const admin = await createUserInDb(server);
    const res = await as(admin.token).put({ id: admin.user.id }).expect(400);
    expect(res.body.Message).to.equal('You cannot change your own admin rights');
    expect((await server.models.User.findById(admin.user._id))?.admin).to.equal(true);
  });

  it('deletes a teammate who is not an admin; refuses admins and yourself', async () => {
    const admin = await createUserInDb(server);
    const mate = await createUserInDb(server, { account: admin.account, admin: true });
    const refused = await as(admin.token).del({ Id: mate.user.id }).expect(400);
    expect(refused.body.Message).to.equal('Turn off admin rights before deleting this user');
    expect((await as(admin.token).del({ Id: admin.user.id }).expect(400)).body.Message).to.equal('You cannot delete yourself');
    await as(admin.token).put({ id: mate.user.id }).expect(200);
    await as(admin.token).del({ Id: mate.user.id }).expect(204);
    expect(await server.models.User.findById(mate.user._id)).to.equal(null);
    // The deleted user's session ends with them.
    await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${mate.token}`).expect(403);
  });

  it('answers 403 to users who are not admins, for every call', async () => {
    const admin = await createUserInDb(server);
    const mate = await createUserInDb(server, { account: admin.account, admin: false });
    for (const call of [
      as(mate.token).get(),
      as(mate.token).post({ email: uniqueEmail() }),
      as(mate.token).put({ id: admin.user.id }),
      as(mate.token).del({ Id: admin.user.id }),
    ]) {
      const res = await call.expect(403);
      expect(res.body.Error).to.equal('admin_required');
    }
    expect((await server.models.User.findById(admin.user._id))?.admin).to.equal(true);
  });

  it('answers 404 for another account’s user ids and 400 for malformed ones', async () => {
    const admin = await createUserInDb(server);
    const stranger = await createUserInDb(server, { admin: false });
    await as(admin.token).put({ id: stranger.user.id }).expect(404);
    await as(admin.token).del({ Id: stranger.user.id }).expect(404);
    expect(await server.models.User.findById(stranger.user._id)).to.not.equal(null);
    await as(admin.token).put({ id: 'nope' }).expect(400);
    await as(admin.token).del({}).expect(400);
  });

  it('answers 403 without a session', async () => {
    await request(server.url).get('/v1/dashboard-admin/users').expect(403);
  });
});
