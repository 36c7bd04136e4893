import { expect } from 'chai';
import { logIn } from '../../server/commands/logIn';
import { ValidationError } from '../../server/errors';
import { MESSAGES } from '../../server/shared/auth';
import { createUserInDb } from '../factories';
import { useStore } from './helpers';

describe('logIn', () => {
  const store = useStore();

  it('answers the user of a matching e-mail and password and records when they signed in', async () => {
    const { user, password } = await createUserInDb(store, { lastSignedInAt: new Date('2020-01-01') });
    const before = Date.now();
    const signedIn = await logIn(store.models, user.email, password, store.config.passwordHashing);
    expect(String(signedIn._id)).to.equal(String(user._id));
    const stored = await store.models.User.findById(user._id);
    expect(stored?.lastSignedInAt?.getTime()).to.be.at.least(before);
  });

  it('refuses a wrong password and an unknown e-mail with the same 400 and message', async () => {
    const { user } = await createUserInDb(store, { lastSignedInAt: new Date('2020-01-01') });
    const failure = (email: string, password: string) =>
      logIn(store.models, email, password, store.config.passwordHashing).then(
        () => null,
        (e: unknown) => e as ValidationError,
      );
    const wrong = await failure(user.email, 'not the password');
    const unknown = await failure('nobody@example.com', 'not the password');
    for (const error of [wrong, unknown]) {
      expect(error).to.be.instanceOf(ValidationError);
      expect(error?.message).to.equal(MESSAGES.wrongCredentials);
      expect(error?.code).to.equal('invalid_credentials');
    }
    expect((await store.models.User.findById(user._id))?.lastSignedInAt?.toISOString()).to.equal('2020-01-01T00:00:00.000Z');
  });
});
