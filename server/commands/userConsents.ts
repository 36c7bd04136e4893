import { ValidationError } from '../errors';
import type { UserDocument } from '../models/User';
import { type LegalDocument, TERMS_VERSION } from '../shared/constants';

/**
 * Records that the user accepted a version of the terms or of the privacy policy. Both documents are published
 * together under the terms version; any other version is refused (400).
 */
export async function confirmLegalDocument(user: UserDocument, document: LegalDocument, version: string): Promise<void> {
  if (version !== TERMS_VERSION) throw new ValidationError(`Unknown ${document} version: ${version}`);
  const now = new Date();
  if (document === 'terms') {
    user.ActiveTOSPP = version;
    user.termsAcceptedAt = now;
  } else {
    user.privacyPolicyVersion = version;
    user.privacyPolicyAcceptedAt = now;
  }
  await user.save();
}

/** Records the user's 0-to-10 answer to "how likely are you to recommend Parley" (-1: they dismissed the question). */
export async function recordNpsRating(user: UserDocument, value: number): Promise<void> {
  user.npsRating = value;
  user.npsRatedAt = new Date();
  await user.save();
}
