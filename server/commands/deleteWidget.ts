import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';

/**
 * Removes a widget. Its Slack channel and the team's installation stay: other widgets may use the
 * installation, and the channel's history belongs to the team.
 */
export async function deleteWidget(models: Models, ce: ChatEndpointDocument): Promise<void> {
  await models.ChatEndpoint.deleteOne({ _id: ce._id, accountId: ce.accountId });
}
