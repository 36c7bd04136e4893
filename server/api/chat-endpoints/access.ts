/**
 * The access check of routes taking an id, on top of the shared findOwned: the object must belong to
 * the caller's account. Unknown, malformed and other accounts' ids get the same 404.
 */
import type { Response } from 'express';
import { NotFoundError } from '../../errors';
import { authOf } from '../../http/auth';
import type { Models } from '../../models';
import type { AccountDocument } from '../../models/Account';
import type { ChatEndpointDocument } from '../../models/ChatEndpoint';
import { findOwned } from '../ownership';

export function ownChatEndpoint(models: Models, res: Response, id: string): Promise<ChatEndpointDocument> {
  return findOwned(models.ChatEndpoint, id, authOf(res).user.accountId);
}

/** An account has no accountId field: the caller's own account is the only one they may name. */
export async function ownAccount(models: Models, res: Response, id: string): Promise<AccountDocument> {
  const { user } = authOf(res);
  const account = user.accountId.toHexString() === id ? await models.Account.findById(id) : null;
  if (!account) throw new NotFoundError('Account not found');
  return account;
}
