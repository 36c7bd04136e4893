import argon2 from 'argon2';

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** A hash of a password nobody knows, checked when the e-mail is unknown so both cases take as long. */
let decoyHash: Promise<string> | undefined;

/** True when the password matches; a null hash (no password set yet) never matches. */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    decoyHash ??= hashPassword(`decoy-${Math.random()}`);
    await argon2.verify(await decoyHash, password);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    // A malformed stored hash must read as a failed login, not a crash.
    return false;
  }
}
