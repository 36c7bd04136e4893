import { expect } from 'chai';
import { verifyPassword } from '../../server/commands/passwords';
import { signUp } from '../../server/commands/signUp';
import { ValidationError } from '../../server/errors';
import { MESSAGES } from '../../server/shared/auth';
import { TRIAL_DAYS } from '../../server/shared/constants';
import { TRIAL_PLAN_STRIPE_ID } from '../../server/shared/plans';
import { uniqueEmail } from '../factories';
import { useStore } from './helpers';

describe('signUp', () => {
  const store = useStore();

  it('makes an account on the basic trial, its admin with the hashed password and a first widget at Step 1', async () => {
    const email = uniqueEmail();
    const user = await signUp(store.models, { email, password: 'correct horse battery', tklID: 'ref-1' }, store.config.passwordHashing);
    expect(user).to.include({ email, admin: true, tklID: 'ref-1' });
    expect(await verifyPassword(user.passwordHash, 'correct horse battery', store.config.passwordHashing)).to.equal(true);
    const account = await store.models.Account.findById(user.accountId);
    expect(account?.planStripeId).to.equal(TRIAL_PLAN_STRIPE_ID);
    const trialDays = ((account?.trialEndAt?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(trialDays).to.be.within(TRIAL_DAYS - 0.01, TRIAL_DAYS);
    const widgets = await store.models.ChatEndpoint.find({ accountId: user.accountId });
    expect(widgets.map((w) => w.Step)).to.deep.equal([1]);
  });

  it('refuses a taken e-mail with user_exists, also when two sign-ups race, and leaves no stray account', async () => {
    const email = uniqueEmail();
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => signUp(store.models, { email, password: 'correct horse battery' }, store.config.passwordHashing)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(r.reason).to.be.instanceOf(ValidationError);
      expect(r.reason.message).to.equal(MESSAGES.userExists);
      expect(r.reason.code).to.equal('user_exists');
    }
    expect(await store.models.Account.countDocuments({ email })).to.equal(1);
    expect(await store.models.User.countDocuments({ email })).to.equal(1);
  });
});
