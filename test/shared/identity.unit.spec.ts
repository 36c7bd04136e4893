/** Verified identity's rules: the userHash check (server/conversations/identity.ts) and the snippets a site copies. */
import { createHmac } from 'node:crypto';
import vm from 'node:vm';
import { expect } from 'chai';
import { newIdentitySecret, userHashOf, userHashValid, verifiedIdentity } from '../../server/conversations/identity';
import { IDENTITY_LANGUAGES, IDENTITY_SECRET_ENV, identityServerSnippet } from '../../server/shared/identity';

describe('verified identity rules', () => {
  const secret = newIdentitySecret();

  it('makes secrets of 64 hex digits, a new one each time', () => {
    expect(secret).to.match(/^[0-9a-f]{64}$/);
    expect(newIdentitySecret()).to.not.equal(secret);
  });

  it('accepts the hex HMAC-SHA256 of the user id under the secret, in either case', () => {
    const hash = createHmac('sha256', secret).update('user-42').digest('hex');
    expect(userHashOf(secret, 'user-42')).to.equal(hash);
    expect(userHashValid(secret, 'user-42', hash)).to.equal(true);
    expect(userHashValid(secret, 'user-42', hash.toUpperCase())).to.equal(true);
    expect(verifiedIdentity(secret, { userId: 'user-42', userHash: hash })).to.equal('user-42');
    expect(userHashValid(secret, 'ünïcode-id', userHashOf(secret, 'ünïcode-id'))).to.equal(true);
  });

  it('refuses another id, another secret, no secret, and hashes that are not 64 hex digits', () => {
    const hash = userHashOf(secret, 'user-42');
    expect(userHashValid(secret, 'user-43', hash)).to.equal(false);
    expect(userHashValid(newIdentitySecret(), 'user-42', hash)).to.equal(false);
    expect(userHashValid('', 'user-42', userHashOf('', 'user-42'))).to.equal(false);
    for (const bad of ['', hash.slice(0, 63), `${hash}00`, `${hash.slice(0, 63)}g`, 'x'.repeat(64)]) {
      expect(userHashValid(secret, 'user-42', bad), bad).to.equal(false);
    }
    expect(verifiedIdentity(secret, { userId: '', userHash: userHashOf(secret, '') })).to.equal(null);
    expect(verifiedIdentity(secret, { userId: 'user-42' })).to.equal(null);
  });

  it('gives a snippet for each server language that reads the secret from the environment and never holds one', () => {
    expect(IDENTITY_LANGUAGES).to.deep.equal(['node', 'python', 'ruby', 'php', 'go']);
    for (const language of IDENTITY_LANGUAGES) {
      const code = identityServerSnippet(language);
      expect(code, language)
        .to.include(IDENTITY_SECRET_ENV)
        .and.match(/sha256/i);
      expect(code, language).to.not.match(/[0-9a-f]{32}/);
    }
  });

  it('computes with the Node.js snippet exactly the hash Parley checks', () => {
    const context = vm.createContext({ require, process: { env: { [IDENTITY_SECRET_ENV]: secret } } });
    vm.runInContext(identityServerSnippet('node'), context);
    const hash = vm.runInContext("parleyUserHash('user-42')", context) as string;
    expect(userHashValid(secret, 'user-42', hash)).to.equal(true);
  });
});
