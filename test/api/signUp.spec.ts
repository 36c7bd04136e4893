import { expect } from 'chai';
import request from 'supertest';
import { TERMS_VERSION, TRIAL_DAYS } from '../../server/shared';
import { buildUser, signUpUser } from '../factories';
import { useServer } from '../helpers/app';

describe('POST /v1/p/users (sign-up)', () => {
  const server = useServer();

  it('creates an admin user on a 30-day trial of the basic plan with a first widget at Step 1, and answers a working token', async () => {
    const input = buildUser({ tklID: 'trk-123' });
    const res = await request(server.url).post('/v1/p/users').send(input).expect(200);
    expect(res.body).to.have.keys('token');

    const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${res.body.token}`).expect(200);
    expect(me.body.email).to.equal(input.email);
    expect(me.body.admin).to.equal(true);
    expect(me.body.ActiveTOSPP).to.not.equal(TERMS_VERSION);
    expect(me.body.account.plan.label).to.equal('Basic');
    expect(me.body.account.plan.duration).to.equal('monthly');
    expect(me.body.account.paymentType).to.equal('none');
    const trialDays = (Date.parse(me.body.account.trialEndAt) - Date.now()) / 86_400_000;
    expect(trialDays).to.be.within(TRIAL_DAYS - 0.1, TRIAL_DAYS + 0.1);
    expect(me.body.ces).to.have.length(1);
    expect(me.body.ces[0].Step).to.equal(1);
    expect(me.body.ces[0].Uuid).to.match(/^[0-9a-f-]{36}$/);
    expect(Date.now() - Date.parse(me.body.lastSignedInAt)).to.be.lessThan(60_000);

    const stored = await server.models.User.findOne({ email: input.email }).lean();
    expect(stored?.tklID).to.equal('trk-123');
    expect(stored?.passwordHash).to.match(/^\$argon2id\$/);
  });

  it('stores the e-mail trimmed and lowercased, so the same address cannot sign up twice in another case', async () => {
    const input = buildUser();
    await request(server.url)
      .post('/v1/p/users')
      .send({ ...input, email: `  ${input.email.toUpperCase()} ` })
      .expect(200);
    const res = await request(server.url).post('/v1/p/users').send(input).expect(400);
    expect(res.body.Error).to.equal('user_exists');
  });

  it("answers 400 with Error 'user_exists' and a Message when the e-mail already has an account, and creates nothing", async () => {
    const existing = await signUpUser(server);
    const accountsBefore = await server.models.Account.countDocuments();
    const res = await request(server.url)
      .post('/v1/p/users')
      .send(buildUser({ email: existing.email }))
      .expect(400);
    expect(res.body).to.deep.include({ Error: 'user_exists' });
    expect(res.body.Message).to.be.a('string').and.not.empty;
    expect(await server.models.Account.countDocuments()).to.equal(accountsBefore);
  });

  it("answers 400 'Password is too short' for a password of 6 characters", async () => {
    const res = await request(server.url)
      .post('/v1/p/users')
      .send(buildUser({ password: '123456' }))
      .expect(400);
    expect(res.body.Message).to.equal('Password is too short');
  });

  it('accepts a password of 7 characters', async () => {
    await request(server.url)
      .post('/v1/p/users')
      .send(buildUser({ password: '1234567' }))
      .expect(200);
  });

  it("answers 400 'Email is invalid' for an address without a domain", async () => {
    const res = await request(server.url)
      .post('/v1/p/users')
      .send(buildUser({ email: 'someone@' }))
      .expect(400);
    expect(res.body).to.deep.equal({ Message: 'Email is invalid', Error: 'bad_request' });
  });

  it('answers 400 when a field is missing', async () => {
    const res = await request(server.url).post('/v1/p/users').send({ email: 'a@example.com' }).expect(400);
    expect(res.body.Message).to.equal('Password is too short');
  });

  it('never shows a password hash or token in the current user', async () => {
    const { token } = await signUpUser(server);
    const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${token}`).expect(200);
    const text = JSON.stringify(me.body);
    expect(text).not.to.contain('argon2');
    expect(text).not.to.contain('passwordHash');
    expect(text).not.to.contain(token);
  });
});
