import { expect } from 'chai';
import { findApiKey, forgetPlaintextApiKeys, generateApiKey, hashApiKey, maskedKeys } from '../../server/commands/apiKeys';
import { createUserInDb } from '../factories';
import { useStore } from './helpers';

describe('apiKeys', () => {
  const store = useStore();

  it('answers a new key in full once and keeps only its hash and first 8 characters', async () => {
    const { user } = await createUserInDb(store);
    const key = await generateApiKey(store.models, user, 'api');
    expect(key).to.match(/^pk_[A-Za-z0-9_-]{40}$/);
    const stored = await store.models.ApiKey.findOne({ accountId: user.accountId, kind: 'api' }).lean();
    expect(stored?.keyHash).to.equal(hashApiKey(key));
    expect(JSON.stringify(stored)).to.not.include(key);
    expect(await maskedKeys(store.models, user.accountId)).to.deep.equal({ apiKey: `${key.slice(0, 8)}…`, zapierApiKey: '' });
  });

  it('finds a live key only by its kind; regenerating revokes the old key and its Zapier REST hooks', async () => {
    const { user } = await createUserInDb(store);
    const zapier = await generateApiKey(store.models, user, 'zapier');
    expect(zapier.startsWith('zk_')).to.equal(true);
    const found = await findApiKey(store.models, 'zapier', zapier);
    expect(String(found?.accountId)).to.equal(String(user.accountId));
    expect(await findApiKey(store.models, 'api', zapier)).to.equal(null);
    await store.models.RestHook.collection.insertOne({
      apiKeyId: found?._id,
      accountId: user.accountId,
      event: 'new_chat',
      targetUrl: 'https://hooks.zapier.test/1',
    });
    const next = await generateApiKey(store.models, user, 'zapier');
    expect(await findApiKey(store.models, 'zapier', zapier)).to.equal(null);
    expect(await findApiKey(store.models, 'zapier', next)).to.not.equal(null);
    expect(await store.models.RestHook.countDocuments({ apiKeyId: found?._id })).to.equal(0);
  });

  it('drops keys old accounts kept in clear', async () => {
    const { account } = await createUserInDb(store);
    await store.models.Account.collection.updateOne({ _id: account._id }, { $set: { apiKey: 'clear-1', zapierApiKey: 'clear-2' } });
    await forgetPlaintextApiKeys(store.models);
    const raw = await store.models.Account.collection.findOne({ _id: account._id });
    expect(raw).to.not.have.property('apiKey');
    expect(raw).to.not.have.property('zapierApiKey');
  });
});
