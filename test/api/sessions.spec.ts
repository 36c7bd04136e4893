import { expect } from 'chai';
import request from 'supertest';
import { signUpUser, uniqueEmail } from '../factories';
import { useServer } from '../helpers/app';

describe('POST /v1/p/sessions (login) and HEAD /v1/users/logout', () => {
  const server = useServer();

  it('answers a token for the right e-mail and password, and records the sign-in time', async () => {
    const user = await signUpUser(server);
    await server.models.User.updateOne({ email: user.email }, { $set: { lastSignedInAt: new Date('2020-01-01') } });
    const res = await request(server.url).post('/v1/p/sessions').send({ email: user.email, password: user.password }).expect(200);
    expect(res.body.token).to.be.a('string');
    const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${res.body.token}`).expect(200);
    expect(me.body.email).to.equal(user.email);
    expect(Date.now() - Date.parse(me.body.lastSignedInAt)).to.be.lessThan(60_000);
  });

  it('accepts the e-mail in another case and with spaces around it', async () => {
    const user = await signUpUser(server);
    await request(server.url)
      .post('/v1/p/sessions')
      .send({ email: ` ${user.email.toUpperCase()}`, password: user.password })
      .expect(200);
  });

  it('answers 400 with the same Message for a wrong password and for an unknown e-mail', async () => {
    const user = await signUpUser(server);
    const wrongPassword = await request(server.url)
      .post('/v1/p/sessions')
      .send({ email: user.email, password: 'not the password' })
      .expect(400);
    const unknown = await request(server.url).post('/v1/p/sessions').send({ email: uniqueEmail(), password: user.password }).expect(400);
    expect(wrongPassword.body.Message).to.be.a('string').and.not.empty;
    expect(wrongPassword.body).to.deep.equal(unknown.body);
    expect(wrongPassword.body).not.to.have.property('token');
  });

  it('answers 400 with a Message when the password is empty', async () => {
    const res = await request(server.url).post('/v1/p/sessions').send({ email: uniqueEmail(), password: '' }).expect(400);
    expect(res.body.Message).to.equal('Password is required');
  });

  it('logs out: the token stops working everywhere, other sessions of the user go on', async () => {
    const user = await signUpUser(server);
    const other = await request(server.url).post('/v1/p/sessions').send({ email: user.email, password: user.password }).expect(200);
    await request(server.url).head('/v1/users/logout').set('Authorization', `Bearer ${user.token}`).expect(200);
    await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${user.token}`).expect(403);
    await request(server.url).head('/v1/users/logout').set('Authorization', `Bearer ${user.token}`).expect(403);
    await request(server.url)
      .get('/v1/users/current')
      .set('Authorization', `Bearer ${other.body.token as string}`)
      .expect(200);
  });

  it('accepts the Bearer scheme in any case', async () => {
    const user = await signUpUser(server);
    await request(server.url).get('/v1/users/current').set('Authorization', `bearer ${user.token}`).expect(200);
  });

  it('answers 403 to logout without a token', async () => {
    await request(server.url).head('/v1/users/logout').expect(403);
  });
});
