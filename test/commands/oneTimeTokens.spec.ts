import { expect } from 'chai';
import { claimOneTimeToken, spendOpenTokens } from '../../server/commands/oneTimeTokens';
import { createUserInDb } from '../factories';
import { useStore } from './helpers';

describe('oneTimeTokens', () => {
  const store = useStore();
  const HOUR = 3600_000;

  it('answers the user of a live token once; a second claim, even at the same time, gets nothing', async () => {
    const { user } = await createUserInDb(store);
    const now = new Date();
    await store.models.PasswordResetToken.create({ tokenHash: 'live-1', userId: user._id, expiresAt: new Date(now.getTime() + HOUR) });
    const claims = await Promise.all([1, 2, 3].map(() => claimOneTimeToken(store.models, store.models.PasswordResetToken, 'live-1', now)));
    expect(claims.filter((c) => c !== null).map((c) => String(c?._id))).to.deep.equal([String(user._id)]);
    expect(await claimOneTimeToken(store.models, store.models.PasswordResetToken, 'live-1', now)).to.equal(null);
  });

  it('refuses an expired or unknown token, and one whose user is gone', async () => {
    const { user } = await createUserInDb(store);
    const now = new Date();
    await store.models.PasswordResetToken.create({ tokenHash: 'old-1', userId: user._id, expiresAt: new Date(now.getTime() - 1) });
    expect(await claimOneTimeToken(store.models, store.models.PasswordResetToken, 'old-1', now)).to.equal(null);
    expect(await claimOneTimeToken(store.models, store.models.PasswordResetToken, 'never-made', now)).to.equal(null);
    const { user: leaving } = await createUserInDb(store);
    await store.models.PasswordResetToken.create({ tokenHash: 'orphan-1', userId: leaving._id, expiresAt: new Date(now.getTime() + HOUR) });
    await store.models.User.deleteOne({ _id: leaving._id });
    expect(await claimOneTimeToken(store.models, store.models.PasswordResetToken, 'orphan-1', now)).to.equal(null);
  });

  it("spends the user's other open links, and only theirs", async () => {
    const { user } = await createUserInDb(store);
    const { user: other } = await createUserInDb(store);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + HOUR);
    await store.models.PasswordResetToken.create([
      { tokenHash: 'mine-a', userId: user._id, expiresAt },
      { tokenHash: 'mine-b', userId: user._id, expiresAt },
      { tokenHash: 'theirs', userId: other._id, expiresAt },
    ]);
    await spendOpenTokens(store.models.PasswordResetToken, user._id, now);
    expect(await claimOneTimeToken(store.models, store.models.PasswordResetToken, 'mine-a', now)).to.equal(null);
    expect(await claimOneTimeToken(store.models, store.models.PasswordResetToken, 'mine-b', now)).to.equal(null);
    expect(String((await claimOneTimeToken(store.models, store.models.PasswordResetToken, 'theirs', now))?._id)).to.equal(
      String(other._id),
    );
  });
});
