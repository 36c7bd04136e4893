import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { createSession, resolveSession, revokeSession, revokeUserSessions } from '../../server/commands/sessions';
import { createUserInDb } from '../factories';
import { useStore } from './helpers';

describe('sessions', () => {
  const store = useStore();
  const secret = 'a-test-secret-of-enough-length-0123456789';

  it('resolves a fresh token to its user until that session is revoked, leaving the user’s other sessions', async () => {
    const { user } = await createUserInDb(store);
    const first = await createSession(store.models, secret, user._id);
    const second = await createSession(store.models, secret, user._id);
    const resolved = await resolveSession(store.models, secret, first);
    expect(String(resolved?.user._id)).to.equal(String(user._id));
    await revokeSession(store.models, resolved?.session.jti ?? '');
    expect(await resolveSession(store.models, secret, first)).to.equal(null);
    expect(await resolveSession(store.models, secret, second)).to.not.equal(null);
  });

  it('ends every session of a user at once (after a password reset)', async () => {
    const { user } = await createUserInDb(store);
    const tokens = await Promise.all([1, 2].map(() => createSession(store.models, secret, user._id)));
    await revokeUserSessions(store.models, user._id);
    for (const token of tokens) expect(await resolveSession(store.models, secret, token)).to.equal(null);
  });

  it('refuses a token signed with another secret or algorithm, malformed claims, an expired row and a gone user', async () => {
    const { user } = await createUserInDb(store);
    const token = await createSession(store.models, secret, user._id);
    expect(await resolveSession(store.models, 'another-secret', token)).to.equal(null);
    expect(await resolveSession(store.models, secret, 'not.a.jwt')).to.equal(null);
    const claims = jwt.decode(token) as { sub: string; jti: string };
    expect(
      await resolveSession(store.models, secret, jwt.sign({ sub: claims.sub, jti: claims.jti }, secret, { algorithm: 'HS512' })),
    ).to.equal(null);
    expect(await resolveSession(store.models, secret, jwt.sign({ sub: { $ne: '' }, jti: claims.jti }, secret))).to.equal(null);
    // The session's row says who it is for: a token naming another user is refused.
    const { user: other } = await createUserInDb(store);
    expect(await resolveSession(store.models, secret, jwt.sign({ sub: other._id.toHexString(), jti: claims.jti }, secret))).to.equal(null);
    await store.models.Session.updateOne({ jti: claims.jti }, { $set: { expiresAt: new Date(Date.now() - 1) } });
    expect(await resolveSession(store.models, secret, token)).to.equal(null);
    const live = await createSession(store.models, secret, user._id);
    await store.models.User.deleteOne({ _id: user._id });
    expect(await resolveSession(store.models, secret, live)).to.equal(null);
  });
});
