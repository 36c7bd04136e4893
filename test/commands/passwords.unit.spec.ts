import { expect } from 'chai';
import { hashPassword, verifyPassword } from '../../server/commands/passwords';
import { TEST_PASSWORD_HASHING } from '../helpers/testConfig';

describe('passwords', () => {
  it('stores an argon2id hash, never the password, and verifies only the same password', async () => {
    const hash = await hashPassword('correct horse battery', TEST_PASSWORD_HASHING);
    expect(hash).to.match(/^\$argon2id\$/);
    expect(hash).to.not.include('correct horse battery');
    expect(await verifyPassword(hash, 'correct horse battery', TEST_PASSWORD_HASHING)).to.equal(true);
    expect(await verifyPassword(hash, 'correct horse batterY', TEST_PASSWORD_HASHING)).to.equal(false);
    expect(await hashPassword('correct horse battery', TEST_PASSWORD_HASHING)).to.not.equal(hash);
  });

  it('never matches a user without a password, nor a malformed stored hash (a failed login, not a crash)', async () => {
    expect(await verifyPassword(null, '', TEST_PASSWORD_HASHING)).to.equal(false);
    expect(await verifyPassword(null, 'anything', TEST_PASSWORD_HASHING)).to.equal(false);
    expect(await verifyPassword('not-a-hash', 'anything', TEST_PASSWORD_HASHING)).to.equal(false);
    expect(await verifyPassword('$argon2id$v=19$m=1024,t=1,p=1$broken', 'anything', TEST_PASSWORD_HASHING)).to.equal(false);
  });
});
