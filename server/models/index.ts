/**
 * Models are bound to a connection (not to mongoose's global one) so several Parley instances, for
 * example test servers with their own databases, can live in one process.
 */
import type { Connection } from 'mongoose';
import { accountModel } from './Account';
import { answerEventModel } from './AnswerEvent';
import { answerSynonymsModel } from './AnswerSynonyms';
import { apiKeyModel } from './ApiKey';
import { articleModel } from './Article';
import { botUserModel } from './BotUser';
import { chatEndpointModel } from './ChatEndpoint';
import { conversationModel } from './Conversation';
import { conversationAssistModel } from './ConversationAssist';
import { conversationCounterModel } from './ConversationCounter';
import { deletedConversationsModel } from './DeletedConversations';
import { gdprErasureModel } from './GdprErasure';
import { gdprExportModel } from './GdprExport';
import { inboundMailModel } from './InboundMail';
import { inboxEventModel } from './InboxEvent';
import { inboxTallyModel } from './InboxTally';
import { installationModel } from './Installation';
import { invitationModel } from './Invitation';
import { mailgunTokenSeenModel } from './MailgunTokenSeen';
import { messageModel } from './Message';
import { oauthStateModel } from './OAuthState';
import { offlineMessageModel } from './OfflineMessage';
import { operatorSeatModel } from './OperatorSeat';
import { outboxJobModel } from './OutboxJob';
import { passwordResetTokenModel } from './PasswordResetToken';
import { planModel } from './Plan';
import { presenceChangeModel } from './PresenceChange';
import { questionGroupModel } from './QuestionGroup';
import { restHookModel } from './RestHook';
import { savedReplyModel } from './SavedReply';
import { sessionModel } from './Session';
import { slackEarlyChangeModel } from './SlackEarlyChange';
import { slackEventSeenModel } from './SlackEventSeen';
import { stripeEventModel } from './StripeEvent';
import { taskLeaseModel } from './TaskLease';
import { userModel } from './User';
import { visitorModel } from './Visitor';
import { widgetFileModel } from './WidgetFile';

export function createModels(connection: Connection) {
  return {
    User: userModel(connection),
    Account: accountModel(connection),
    Plan: planModel(connection),
    ChatEndpoint: chatEndpointModel(connection),
    Session: sessionModel(connection),
    PasswordResetToken: passwordResetTokenModel(connection),
    Installation: installationModel(connection),
    OAuthState: oauthStateModel(connection),
    Visitor: visitorModel(connection),
    Conversation: conversationModel(connection),
    ConversationCounter: conversationCounterModel(connection),
    Message: messageModel(connection),
    OutboxJob: outboxJobModel(connection),
    SlackEventSeen: slackEventSeenModel(connection),
    SlackEarlyChange: slackEarlyChangeModel(connection),
    WidgetFile: widgetFileModel(connection),
    OfflineMessage: offlineMessageModel(connection),
    SavedReply: savedReplyModel(connection),
    QuestionGroup: questionGroupModel(connection),
    ConversationAssist: conversationAssistModel(connection),
    BotUser: botUserModel(connection),
    Invitation: invitationModel(connection),
    ApiKey: apiKeyModel(connection),
    RestHook: restHookModel(connection),
    GdprExport: gdprExportModel(connection),
    GdprErasure: gdprErasureModel(connection),
    PresenceChange: presenceChangeModel(connection),
    StripeEvent: stripeEventModel(connection),
    OperatorSeat: operatorSeatModel(connection),
    DeletedConversations: deletedConversationsModel(connection),
    InboundMail: inboundMailModel(connection),
    Article: articleModel(connection),
    AnswerEvent: answerEventModel(connection),
    AnswerSynonyms: answerSynonymsModel(connection),
    MailgunTokenSeen: mailgunTokenSeenModel(connection),
    InboxEvent: inboxEventModel(connection),
    InboxTally: inboxTallyModel(connection),
    TaskLease: taskLeaseModel(connection),
  };
}
export type Models = ReturnType<typeof createModels>;

/** Creates the indexes (unique e-mails, TTLs ...) of every model. */
export async function ensureIndexes(models: Models): Promise<void> {
  for (const model of Object.values(models)) await model.init();
}
