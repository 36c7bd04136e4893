import type { ArticleSearch } from '../answers/search';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { SavedRepliesWritten } from './autoSendReplies';
import { dropUnlistedTags } from './questionGroups';

/**
 * Removes a widget with its help center: its articles, synonym groups and help-center events (AnswerEvents), and its
 * tags from the question groups of the account that no other widget lists. Its
 * Slack channel and the team's installation stay: other widgets may use the installation, and the channel's
 * history belongs to the team.
 */
export async function deleteWidget(
  deps: { models: Models; autoReplies: SavedRepliesWritten; articleSearch: Pick<ArticleSearch, 'changed'> },
  ce: ChatEndpointDocument,
): Promise<void> {
  const { models } = deps;
  const removed = await models.ChatEndpoint.deleteOne({ _id: ce._id, accountId: ce.accountId });
  // Only when the widget was the caller's account's: a forged document deletes nothing of anyone's.
  if (removed.deletedCount > 0) {
    const own = { ceId: ce._id, accountId: ce.accountId };
    await Promise.all([models.Article.deleteMany(own), models.AnswerSynonyms.deleteMany(own), models.AnswerEvent.deleteMany(own)]);
    // Its tags leave the account's question groups that no other widget lists.
    await dropUnlistedTags(models, { _id: ce._id, accountId: ce.accountId, tags: [] });
  }
  // Its automatic replies are sent no more and its articles are found no more; the memory they held goes.
  deps.autoReplies.changed(ce._id);
  deps.articleSearch.changed(String(ce._id));
}
