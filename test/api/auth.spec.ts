import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';

/** Every signed-in call, as [method, path]. */
const SIGNED_IN_CALLS: ['get' | 'post' | 'head', string][] = [
  ['get', '/v1/users/current'],
  ['get', '/v1/users/current/chat_endpoints'],
  ['post', '/v1/users/legal_confirmation/terms/11AUG2020'],
  ['get', '/v1/users/rate/7'],
  ['head', '/v1/users/logout'],
];

describe('signed-in calls without a valid session', () => {
  let user: Awaited<ReturnType<typeof signUpUser>>;
  const server = useServer();
  before(async () => {
    user = await signUpUser(server);
  });

  const badAuthorizations: [string, () => Promise<string | undefined>][] = [
    ['there is no Authorization header', async () => undefined],
    ['the token is not a JWT', async () => 'Bearer not-a-token'],
    ['the scheme is not Bearer', async () => `Basic ${user.token}`],
    [
      'the token is signed with another secret',
      async () => {
        const claims = jwt.decode(user.token) as { sub: string; jti: string };
        return `Bearer ${jwt.sign({ sub: claims.sub, jti: claims.jti }, 'another secret that is long enough', { expiresIn: 60 })}`;
      },
    ],
    [
      'the token names a session that never existed',
      async () => {
        const claims = jwt.decode(user.token) as { sub: string };
        return `Bearer ${jwt.sign({ sub: claims.sub, jti: 'x'.repeat(32) }, server.config.jwtSecret, { expiresIn: 60 })}`;
      },
    ],
    [
      'the token has expired',
      async () => {
        const claims = jwt.decode(user.token) as { sub: string; jti: string };
        return `Bearer ${jwt.sign({ sub: claims.sub, jti: claims.jti, exp: Math.floor(Date.now() / 1000) - 10 }, server.config.jwtSecret)}`;
      },
    ],
    [
      'the token claims another user than its session',
      async () => {
        const other = await signUpUser(server);
        const mine = jwt.decode(user.token) as { jti: string };
        const theirs = jwt.decode(other.token) as { sub: string };
        return `Bearer ${jwt.sign({ sub: theirs.sub, jti: mine.jti }, server.config.jwtSecret, { expiresIn: 60 })}`;
      },
    ],
    [
      'the token uses the "none" algorithm',
      async () => {
        const claims = jwt.decode(user.token) as { sub: string; jti: string };
        return `Bearer ${jwt.sign({ sub: claims.sub, jti: claims.jti }, '', { algorithm: 'none' })}`;
      },
    ],
  ];

  for (const [reason, authorization] of badAuthorizations) {
    for (const [method, path] of SIGNED_IN_CALLS) {
      it(`answers 403 to ${method.toUpperCase()} ${path} when ${reason}`, async () => {
        const value = await authorization();
        const req = request(server.url)[method](path);
        if (value !== undefined) req.set('Authorization', value);
        const res = await req.expect(403);
        if (method !== 'head') expect(res.body).to.have.keys('Message', 'Error');
      });
    }
  }

  it('answers 403 once the user behind a valid token is deleted', async () => {
    const doomed = await signUpUser(server);
    await server.models.User.deleteOne({ email: doomed.email });
    const res = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${doomed.token}`).expect(403);
    expect(res.body.Error).to.equal('session_invalid');
  });

  it('still accepts the untouched token (the cases above are refused for their reason)', async () => {
    await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${user.token}`).expect(200);
  });
});
