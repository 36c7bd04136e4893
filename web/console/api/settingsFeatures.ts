/**
 * Typed calls of the gated settings tabs (spec section 7): saved replies, question groups, and the bots and
 * users added to new conversations, the Segment status. Triggers are saved through update_config (api/settings.ts).
 */
import type { BotUserView, SlackUserView } from '../../../server/shared/bots';
import type { SegmentStatusView } from '../../../server/shared/integrations';
import type { QuestionGroupInput, QuestionGroupView } from '../../../server/shared/questionGroups';
import type { SavedReplyInput, SavedReplyView } from '../../../server/shared/savedReplies';
import { apiRequest } from './client';

const ce = (id: string) => `/chat_endpoints/${encodeURIComponent(id)}`;

export type SavedReply = SavedReplyView;

export async function listSavedReplies(ceId: string): Promise<SavedReply[]> {
  return (await apiRequest<{ replies: SavedReply[] }>('GET', `${ce(ceId)}/saved_replies`)).replies;
}

/** Creates a reply, or updates the one whose id is given. */
export function saveSavedReply(ceId: string, reply: SavedReplyInput): Promise<SavedReply> {
  return apiRequest('POST', `${ce(ceId)}/saved_replies`, { body: reply });
}

export function deleteSavedReply(ceId: string, replyId: string): Promise<void> {
  return apiRequest('DELETE', `${ce(ceId)}/saved_replies/${encodeURIComponent(replyId)}`);
}

export type QuestionGroup = QuestionGroupView;

export async function listQuestionGroups(ceId: string): Promise<QuestionGroup[]> {
  return (await apiRequest<{ groups: QuestionGroup[] }>('GET', `${ce(ceId)}/question_groups`)).groups;
}

export function saveQuestionGroup(ceId: string, group: Partial<QuestionGroupInput>): Promise<QuestionGroup> {
  return apiRequest('POST', `${ce(ceId)}/question_groups`, { body: group });
}

export function deleteQuestionGroup(ceId: string, uid: string): Promise<void> {
  return apiRequest('DELETE', `${ce(ceId)}/question_groups/${encodeURIComponent(uid)}`);
}

/** Members of the widget's Slack workspace; a 400 with code missing_scope when users:read is not granted. */
export function listSlackUsers(ceId: string): Promise<SlackUserView[]> {
  return apiRequest('GET', `${ce(ceId)}/users`);
}

export function listBotUsers(ceId: string): Promise<BotUserView[]> {
  return apiRequest('GET', `${ce(ceId)}/bot_users`);
}

export function addBotUser(ceId: string, user: { userID: string; name: string; botID: string }): Promise<BotUserView> {
  return apiRequest('POST', `${ce(ceId)}/bot`, { body: user });
}

export function removeBotUser(ceId: string, bot: { ID: string; name: string }): Promise<void> {
  return apiRequest('DELETE', `${ce(ceId)}/bot`, { body: bot });
}

/** Whether the widget sends its events to Segment, and how the last batch fared. */
export function segmentStatus(ceId: string): Promise<SegmentStatusView> {
  return apiRequest('GET', `${ce(ceId)}/segment`);
}
