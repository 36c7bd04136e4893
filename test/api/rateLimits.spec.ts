import { expect } from 'chai';
import request from 'supertest';
import { buildUser, signUpUser, uniqueEmail } from '../factories';
import { useServer } from '../helpers/app';

describe('rate limits on the public sign-in calls', () => {
  const server = useServer({
    rateLimits: {
      windowMs: 60 * 60 * 1000,
      loginPerIp: 8,
      loginPerEmail: 3,
      signUpPerIp: 4,
      signUpPerEmail: 2,
      resetEmailPerIp: 100,
      resetEmailPerEmail: 2,
    },
  });

  it('answers 429 with a Message after too many failed logins for one e-mail, even with the right password', async () => {
    const user = await signUpUser(server);
    for (let i = 0; i < 3; i++) {
      await request(server.url)
        .post('/v1/p/sessions')
        .send({ email: user.email, password: `wrong ${i}` })
        .expect(400);
    }
    const res = await request(server.url).post('/v1/p/sessions').send({ email: user.email, password: user.password }).expect(429);
    expect(res.body).to.deep.equal({ Message: res.body.Message, Error: 'rate_limited' });
    expect(res.body.Message).to.be.a('string').and.not.empty;
  });

  it('limits failed logins per client address across e-mails', async () => {
    let status = 0;
    for (let i = 0; i < 10 && status !== 429; i++) {
      status = (await request(server.url).post('/v1/p/sessions').send({ email: uniqueEmail(), password: 'wrong' })).status;
    }
    expect(status).to.equal(429);
  });

  it('cannot be dodged by sending a different X-Forwarded-For with each attempt', async () => {
    const user = await signUpUser(server);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(server.url)
        .post('/v1/p/sessions')
        .set('X-Forwarded-For', `203.0.113.${i}`)
        .send({ email: user.email, password: `wrong ${i}` });
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).to.equal(429);
  });

  it('limits sign-ups per e-mail and per client address', async () => {
    const input = buildUser();
    // The second one fails as user_exists; the third is refused before it is even looked at.
    await request(server.url).post('/v1/p/users').send(input).expect(200);
    await request(server.url).post('/v1/p/users').send(input).expect(400);
    await request(server.url).post('/v1/p/users').send(input).expect(429);
    let status = 0;
    for (let i = 0; i < 5 && status !== 429; i++) {
      status = (await request(server.url).post('/v1/p/users').send(buildUser())).status;
    }
    expect(status).to.equal(429);
  });

  it('limits password reset mails per e-mail, so nobody can flood an inbox', async () => {
    const email = uniqueEmail();
    await request(server.url).post('/v1/p/users/password_reset_email').send({ email }).expect(200);
    await request(server.url).post('/v1/p/users/password_reset_email').send({ email }).expect(200);
    await request(server.url).post('/v1/p/users/password_reset_email').send({ email }).expect(429);
  });
});
