import { expect } from 'chai';
import { confirmLegalDocument, recordNpsRating } from '../../server/commands/userConsents';
import { ValidationError } from '../../server/errors';
import { TERMS_VERSION } from '../../server/shared/constants';
import { createUserInDb } from '../factories';
import { useStore } from './helpers';

describe('userConsents', () => {
  const store = useStore();

  it('records the accepted terms and, separately, the privacy policy, each with its time', async () => {
    const { user } = await createUserInDb(store);
    await confirmLegalDocument(user, 'terms', TERMS_VERSION);
    let stored = await store.models.User.findById(user._id);
    expect(stored?.ActiveTOSPP).to.equal(TERMS_VERSION);
    expect(stored?.termsAcceptedAt).to.be.instanceOf(Date);
    expect(stored?.privacyPolicyAcceptedAt ?? null).to.equal(null);
    await confirmLegalDocument(user, 'privacy-policy', TERMS_VERSION);
    stored = await store.models.User.findById(user._id);
    expect(stored?.privacyPolicyVersion).to.equal(TERMS_VERSION);
    expect(stored?.privacyPolicyAcceptedAt).to.be.instanceOf(Date);
  });

  it('refuses a version that was never published, naming it, and records nothing', async () => {
    const { user } = await createUserInDb(store);
    const error = await confirmLegalDocument(user, 'terms', '1999-01-01').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ValidationError);
    expect((error as Error).message).to.equal('Unknown terms version: 1999-01-01');
    expect((await store.models.User.findById(user._id))?.termsAcceptedAt ?? null).to.equal(null);
  });

  it('records an NPS answer, and -1 for a dismissed question', async () => {
    const { user } = await createUserInDb(store);
    await recordNpsRating(user, 9);
    expect((await store.models.User.findById(user._id))?.npsRating).to.equal(9);
    await recordNpsRating(user, -1);
    const stored = await store.models.User.findById(user._id);
    expect(stored?.npsRating).to.equal(-1);
    expect(stored?.npsRatedAt).to.be.instanceOf(Date);
  });
});
