import { expect } from 'chai';
import { hashResetToken, requestPasswordReset, resetPassword } from '../../server/commands/passwordReset';
import { verifyPassword } from '../../server/commands/passwords';
import { createSession, resolveSession } from '../../server/commands/sessions';
import { ValidationError } from '../../server/errors';
import { MESSAGES } from '../../server/shared/auth';
import { createUserInDb, uniqueEmail } from '../factories';
import { useStore } from './helpers';

describe('passwordReset', () => {
  const store = useStore();
  const publicUrl = 'https://parley.example';
  const tokenOf = (link: string | undefined) => new URL((link ?? '').replace('#/', '')).searchParams.get('token') ?? '';

  it('mails a one-time link to a known address and keeps only the hash of its token', async () => {
    const { user } = await createUserInDb(store);
    await requestPasswordReset(store.models, store.mailer, publicUrl, user.email);
    const mail = await store.mailer.outbox.latestTo(user.email);
    const link = mail?.links.find((l) => l.includes('reset_password'));
    expect(link).to.match(/^https:\/\/parley\.example\/app\/#\/reset_password\?token=[A-Za-z0-9]{64}$/);
    const token = tokenOf(link);
    expect(await store.models.PasswordResetToken.exists({ tokenHash: hashResetToken(token) })).to.not.equal(null);
    expect(await store.models.PasswordResetToken.exists({ tokenHash: token })).to.equal(null);
  });

  it('mails nothing and says nothing for an unknown address', async () => {
    const before = (await store.mailer.outbox.list()).length;
    const email = uniqueEmail('nobody');
    await requestPasswordReset(store.models, store.mailer, publicUrl, email);
    expect(await store.mailer.outbox.latestTo(email)).to.equal(undefined);
    expect((await store.mailer.outbox.list()).length).to.equal(before);
  });

  it('sets the new password, ends every session and spends every link of the user; the link works once', async () => {
    const { user } = await createUserInDb(store);
    const session = await createSession(store.models, store.config.jwtSecret, user._id);
    await requestPasswordReset(store.models, store.mailer, publicUrl, user.email);
    const first = tokenOf((await store.mailer.outbox.latestTo(user.email))?.links[0]);
    await requestPasswordReset(store.models, store.mailer, publicUrl, user.email);
    const second = tokenOf((await store.mailer.outbox.latestTo(user.email))?.links[0]);
    expect(first).to.not.equal(second);
    await resetPassword(store.models, second, 'a brand new password', store.config.passwordHashing);
    const stored = await store.models.User.findById(user._id);
    expect(await verifyPassword(stored?.passwordHash ?? null, 'a brand new password', store.config.passwordHashing)).to.equal(true);
    expect(await resolveSession(store.models, store.config.jwtSecret, session)).to.equal(null);
    for (const spent of [first, second, 'x'.repeat(64)]) {
      const error = await resetPassword(store.models, spent, 'another password', store.config.passwordHashing).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ValidationError);
      expect((error as Error).message).to.equal(MESSAGES.invalidToken);
    }
  });
});
