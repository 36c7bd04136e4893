/**
 * The account's two keys: the API key (read API under /v1/api) and the Zapier key (REST hooks). A key is shown
 * in full once, when generated; only its SHA-256 and first characters are kept. Regenerating deletes the old
 * key's row, so the old key stops working on the next request; the Zapier key's REST hooks go with it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Types } from 'mongoose';
import { restHooksChanged } from '../conversations/webhooks';
import type { Models } from '../models';
import type { ApiKeyDocument, ApiKeyKind } from '../models/ApiKey';
import type { UserDocument } from '../models/User';

const PREFIXES: Record<ApiKeyKind, string> = { api: 'pk_', zapier: 'zk_' };
/** Characters of a key shown after it was generated: enough to tell keys apart, far too few to guess the rest. */
const SHOWN_CHARS = 8;

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** What the console shows for a stored key: its first characters and an ellipsis, or '' when there is none. */
export const maskedKey = (prefix: string) => `${prefix}…`;

/** Replaces the account's key of this kind with a new one and answers the new key in full (the only time). */
export async function generateApiKey(models: Models, user: UserDocument, kind: ApiKeyKind): Promise<string> {
  const key = `${PREFIXES[kind]}${randomBytes(30).toString('base64url')}`;
  const previous = await models.ApiKey.find({ accountId: user.accountId, kind });
  await models.ApiKey.deleteMany({ _id: { $in: previous.map((k) => k._id) } });
  await models.RestHook.deleteMany({ apiKeyId: { $in: previous.map((k) => k._id) } });
  restHooksChanged(models, user.accountId);
  await models.ApiKey.create({
    accountId: user.accountId,
    kind,
    keyHash: hashApiKey(key),
    prefix: key.slice(0, SHOWN_CHARS),
    createdBy: user._id,
  });
  return key;
}

/** The account's keys as the console shows them (masked). */
export async function maskedKeys(models: Models, accountId: Types.ObjectId): Promise<{ apiKey: string; zapierApiKey: string }> {
  const keys = await models.ApiKey.find({ accountId });
  const shown = (kind: ApiKeyKind) => {
    const key = keys.find((k) => k.kind === kind);
    return key ? maskedKey(key.prefix) : '';
  };
  return { apiKey: shown('api'), zapierApiKey: shown('zapier') };
}

/** The live key of this kind with this value, or null (never generated, wrong, or revoked by regeneration). */
export async function findApiKey(models: Models, kind: ApiKeyKind, key: string): Promise<ApiKeyDocument | null> {
  if (!key.startsWith(PREFIXES[kind])) return null;
  return models.ApiKey.findOne({ keyHash: hashApiKey(key), kind });
}

/** Accounts created before keys were hashed kept them in clear: they are dropped, admins generate new ones. */
export async function forgetPlaintextApiKeys(models: Models): Promise<void> {
  await models.Account.collection.updateMany({ apiKey: { $exists: true } }, { $unset: { apiKey: '', zapierApiKey: '' } });
}
