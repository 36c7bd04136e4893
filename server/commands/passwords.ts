import argon2 from 'argon2';
import type { PasswordHashing } from '../config';

/** An argon2id hash of `password` at `cost` (the config's `passwordHashing`). */
export function hashPassword(password: string, cost: PasswordHashing): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, ...cost });
}

/** Hashes of a password nobody knows, one per cost, checked when the e-mail is unknown so both cases take as long. */
const decoyHashes = new Map<string, Promise<string>>();

/** True when the password matches; a null hash (no password set yet) never matches. */
export async function verifyPassword(hash: string | null, password: string, cost: PasswordHashing): Promise<boolean> {
  if (hash === null) {
    const key = `${cost.memoryCost}/${cost.timeCost}/${cost.parallelism}`;
    let decoy = decoyHashes.get(key);
    if (!decoy) {
      decoy = hashPassword(`decoy-${Math.random()}`, cost);
      decoyHashes.set(key, decoy);
    }
    await argon2.verify(await decoy, password);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    // A malformed stored hash must read as a failed login, not a crash.
    return false;
  }
}
