import { expect } from 'chai';
import { regenerateIdentitySecret } from '../../server/commands/identitySecret';
import { userHashOf, userHashValid } from '../../server/conversations/identity';
import { createUserInDb } from '../factories';
import { useStore } from './helpers';

describe('identitySecret', () => {
  const store = useStore();
  const widget = async () => {
    const { user } = await createUserInDb(store);
    const ce = await store.models.ChatEndpoint.findOne({ accountId: user.accountId });
    if (!ce) throw new Error('no widget');
    return ce;
  };
  /** What a regeneration tells the processes: each drops its cached widget and tells the others to. */
  const recording = () => {
    const invalidated: string[] = [];
    const signals: { kind: 'widget'; ceId: string }[] = [];
    return {
      invalidated,
      signals,
      deps: {
        models: store.models,
        widgets: { invalidate: (ceId: string) => invalidated.push(ceId) },
        pubsub: { signal: (signal: { kind: 'widget'; ceId: string }) => signals.push(signal) },
      },
    };
  };

  it('stores a new 64-hex secret with the time it was made and answers that same secret', async () => {
    const ce = await widget();
    const rec = recording();
    const secret = await regenerateIdentitySecret(rec.deps, ce);
    expect(secret).to.match(/^[0-9a-f]{64}$/);
    const stored = await store.models.ChatEndpoint.findById(ce._id);
    expect(stored?.identitySecret).to.equal(secret);
    expect(Date.now() - (stored?.identitySecretCreatedAt?.getTime() ?? 0)).to.be.within(0, 60_000);
  });

  it('replaces the old secret, so hashes made with it stop verifying, and drops every cached copy of the widget', async () => {
    const ce = await widget();
    const rec = recording();
    const old = await regenerateIdentitySecret(rec.deps, ce);
    const oldHash = userHashOf(old, 'user-42');
    expect(userHashValid(old, 'user-42', oldHash)).to.equal(true);
    const fresh = await regenerateIdentitySecret(rec.deps, ce);
    expect(fresh).to.not.equal(old);
    const stored = (await store.models.ChatEndpoint.findById(ce._id))?.identitySecret ?? '';
    expect(stored).to.equal(fresh);
    expect(userHashValid(stored, 'user-42', oldHash)).to.equal(false);
    expect(userHashValid(stored, 'user-42', userHashOf(fresh, 'user-42'))).to.equal(true);
    expect(rec.invalidated).to.deep.equal([ce.id, ce.id]);
    expect(rec.signals).to.deep.equal([
      { kind: 'widget', ceId: ce.id },
      { kind: 'widget', ceId: ce.id },
    ]);
  });

  it("changes no other widget's secret", async () => {
    const mine = await widget();
    const other = await widget();
    const theirs = await regenerateIdentitySecret(recording().deps, other);
    await regenerateIdentitySecret(recording().deps, mine);
    expect((await store.models.ChatEndpoint.findById(other._id))?.identitySecret).to.equal(theirs);
  });
});
