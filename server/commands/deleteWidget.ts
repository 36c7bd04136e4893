import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { SavedRepliesWritten } from './autoSendReplies';

/**
 * Removes a widget. Its Slack channel and the team's installation stay: other widgets may use the
 * installation, and the channel's history belongs to the team.
 */
export async function deleteWidget(deps: { models: Models; autoReplies: SavedRepliesWritten }, ce: ChatEndpointDocument): Promise<void> {
  await deps.models.ChatEndpoint.deleteOne({ _id: ce._id, accountId: ce.accountId });
  // Its automatic replies are sent no more; the memory they held goes.
  deps.autoReplies.changed(ce._id);
}
