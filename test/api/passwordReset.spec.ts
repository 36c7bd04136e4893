import { expect } from 'chai';
import request from 'supertest';
import { hashResetToken } from '../../server/commands/passwordReset';
import { signUpUser, uniqueEmail } from '../factories';
import { useServer } from '../helpers/app';

const RESET_LINK = /\/app\/#\/reset_password\?token=([A-Za-z0-9]{64})$/;

describe('password reset (POST /v1/p/users/password_reset_email and /password_reset)', () => {
  const server = useServer();

  /** Asks for a reset mail and returns the token from its link. */
  async function requestReset(email: string): Promise<{ token: string; link: string }> {
    await request(server.url).post('/v1/p/users/password_reset_email').send({ email }).expect(200);
    const mail = await server.outbox.latestTo(email);
    const link = mail?.links.find((l) => RESET_LINK.test(l));
    const token = link ? RESET_LINK.exec(link)?.[1] : undefined;
    if (!link || !token) throw new Error(`no reset link mailed to ${email}`);
    return { token, link };
  }

  it('mails a link to the reset page of this server with a 64-character alphanumeric token', async () => {
    const user = await signUpUser(server);
    const { link } = await requestReset(user.email);
    expect(link.startsWith(`${server.url}/app/#/reset_password?token=`)).to.equal(true);
    const mail = await server.outbox.latestTo(user.email);
    expect(mail?.subject).to.match(/reset/i);
    expect(mail?.to).to.equal(user.email);
  });

  it('keeps only a hash of the token in the database', async () => {
    const user = await signUpUser(server);
    const { token } = await requestReset(user.email);
    const stored = await server.models.PasswordResetToken.find().lean();
    expect(JSON.stringify(stored)).not.to.contain(token);
    expect(stored.map((t) => t.tokenHash)).to.include(hashResetToken(token));
  });

  it('answers the same 200 for an unknown e-mail and sends nothing', async () => {
    const email = uniqueEmail('nobody');
    const before = (await server.outbox.list()).length;
    const res = await request(server.url).post('/v1/p/users/password_reset_email').send({ email }).expect(200);
    expect(res.body).to.deep.equal({});
    expect((await server.outbox.list()).length).to.equal(before);
  });

  it('answers 400 with a Message for a malformed e-mail', async () => {
    const res = await request(server.url).post('/v1/p/users/password_reset_email').send({ email: 'nope' }).expect(400);
    expect(res.body.Message).to.equal('Email is invalid');
  });

  it('sets the new password: the old one stops working, the new one logs in, and earlier sessions end', async () => {
    const user = await signUpUser(server);
    const { token } = await requestReset(user.email);
    const res = await request(server.url).post('/v1/p/users/password_reset').send({ token, password: 'a brand new secret' }).expect(200);
    expect(res.body.token).to.be.a('string');

    await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${user.token}`).expect(403);
    await request(server.url)
      .get('/v1/users/current')
      .set('Authorization', `Bearer ${res.body.token as string}`)
      .expect(200);
    await request(server.url).post('/v1/p/sessions').send({ email: user.email, password: user.password }).expect(400);
    await request(server.url).post('/v1/p/sessions').send({ email: user.email, password: 'a brand new secret' }).expect(200);
  });

  it("answers 400 'Invalid token' when a token is used a second time", async () => {
    const user = await signUpUser(server);
    const { token } = await requestReset(user.email);
    await request(server.url).post('/v1/p/users/password_reset').send({ token, password: 'first new password' }).expect(200);
    const res = await request(server.url).post('/v1/p/users/password_reset').send({ token, password: 'second new password' }).expect(400);
    expect(res.body).to.deep.equal({ Message: 'Invalid token', Error: 'invalid_token' });
    await request(server.url).post('/v1/p/sessions').send({ email: user.email, password: 'first new password' }).expect(200);
  });

  it('makes older reset links of the same user stop working once one of them is used', async () => {
    const user = await signUpUser(server);
    const older = await requestReset(user.email);
    const newer = await requestReset(user.email);
    expect(older.token).not.to.equal(newer.token);
    await request(server.url).post('/v1/p/users/password_reset').send({ token: newer.token, password: 'newest password' }).expect(200);
    const res = await request(server.url)
      .post('/v1/p/users/password_reset')
      .send({ token: older.token, password: 'sneaky password' })
      .expect(400);
    expect(res.body.Message).to.equal('Invalid token');
  });

  it("answers 400 'Invalid token' once the token is older than an hour", async () => {
    const user = await signUpUser(server);
    const { token } = await requestReset(user.email);
    await server.models.PasswordResetToken.updateOne(
      { tokenHash: hashResetToken(token) },
      { $set: { expiresAt: new Date(Date.now() - 1000) } },
    );
    const res = await request(server.url).post('/v1/p/users/password_reset').send({ token, password: 'too late now' }).expect(400);
    expect(res.body.Message).to.equal('Invalid token');
    await request(server.url).post('/v1/p/sessions').send({ email: user.email, password: user.password }).expect(200);
  });

  it('makes a token expire one hour after it was asked for', async () => {
    const user = await signUpUser(server);
    const { token } = await requestReset(user.email);
    const stored = await server.models.PasswordResetToken.findOne({ tokenHash: hashResetToken(token) }).lean();
    const minutes = ((stored?.expiresAt.getTime() ?? 0) - Date.now()) / 60_000;
    expect(minutes).to.be.within(59, 60);
  });

  for (const [what, token] of [
    ['a well-formed token nobody issued', 'A'.repeat(64)],
    ['a token of 63 characters', 'a'.repeat(63)],
    ['a token with punctuation', `${'a'.repeat(63)}!`],
  ] as const) {
    it(`answers 400 'Invalid token' for ${what}`, async () => {
      const res = await request(server.url).post('/v1/p/users/password_reset').send({ token, password: 'whatever it is' }).expect(400);
      expect(res.body.Message).to.equal('Invalid token');
    });
  }

  it("answers 400 'Password is too short' and keeps the token usable", async () => {
    const user = await signUpUser(server);
    const { token } = await requestReset(user.email);
    const res = await request(server.url).post('/v1/p/users/password_reset').send({ token, password: 'short' }).expect(400);
    expect(res.body.Message).to.equal('Password is too short');
    await request(server.url).post('/v1/p/users/password_reset').send({ token, password: 'long enough now' }).expect(200);
  });
});
