import type { Types } from 'mongoose';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';

/** A new widget at Step 1 (not yet authorised with Slack), with every setting at its default. */
export async function createWidget(
  models: Models,
  owner: { accountId: Types.ObjectId; userId: Types.ObjectId },
): Promise<ChatEndpointDocument> {
  return models.ChatEndpoint.create({ accountId: owner.accountId, userId: owner.userId, Step: 1 });
}
