/**
 * Verified visitor identity: a site's server signs its user's id with the widget's identity secret (hex
 * HMAC-SHA256, the `userHash` of `parley.identify`), and Parley checks the signature in constant time. A visitor
 * whose hash holds is that user on every browser and device; any other claimed identity is only a label.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new identity secret: 32 random bytes as 64 hex characters, easy to paste into any language's HMAC call. */
export function newIdentitySecret(): string {
  return randomBytes(32).toString('hex');
}

/** The userHash a site's server computes: hex HMAC-SHA256 of the user id under the secret. */
export function userHashOf(secret: string, userId: string): string {
  return createHmac('sha256', secret).update(userId, 'utf8').digest('hex');
}

/**
 * True when `userHash` is the HMAC of `userId` under `secret`. A widget without a secret verifies nobody; the
 * comparison takes the same time whatever the hash's first wrong byte.
 */
export function userHashValid(secret: string, userId: string | undefined, userHash: string | undefined): boolean {
  if (!secret || !userId || !userHash || !/^[0-9a-fA-F]{64}$/.test(userHash)) return false;
  const expected = createHmac('sha256', secret).update(userId, 'utf8').digest();
  return timingSafeEqual(Buffer.from(userHash, 'hex'), expected);
}

/** The user id of an identity whose userHash holds under the widget's secret, else null. */
export function verifiedIdentity(secret: string, identity: { userId?: string; userHash?: string }): string | null {
  return identity.userId && userHashValid(secret, identity.userId, identity.userHash) ? identity.userId : null;
}

/**
 * What the site's identify() proved of a visitor: 'verified' (a valid userHash), 'unverified' (a claimed user id the
 * widget's identity secret did not prove: anyone can claim any name and e-mail), or '' (no claim to check: no
 * identify, or a widget without an identity secret, where every identity is only a label).
 */
export type IdentityProof = 'verified' | 'unverified' | '';
export function identityProof(
  visitor: { verifiedUserId?: string; identUserId?: string },
  widget: { identitySecret?: string },
): IdentityProof {
  if (visitor.verifiedUserId) return 'verified';
  return widget.identitySecret && visitor.identUserId ? 'unverified' : '';
}
