/**
 * Models are bound to a connection (not to mongoose's global one) so several Parley instances, for
 * example test servers with their own databases, can live in one process.
 */
import type { Connection } from 'mongoose';
import { accountModel } from './Account';
import { chatEndpointModel } from './ChatEndpoint';
import { installationModel } from './Installation';
import { oauthStateModel } from './OAuthState';
import { passwordResetTokenModel } from './PasswordResetToken';
import { planModel } from './Plan';
import { sessionModel } from './Session';
import { userModel } from './User';
import { conversationCounterModel, conversationModel } from './Conversation';
import { messageModel } from './Message';
import { outboxJobModel, slackEventSeenModel } from './OutboxJob';
import { visitorModel } from './Visitor';
import { widgetFileModel } from './WidgetFile';
import { offlineMessageModel } from './OfflineMessage';
import { savedReplyModel } from './SavedReply';
import { questionGroupModel } from './QuestionGroup';
import { conversationAssistModel, threadPostModel } from './ConversationAssist';
import { botUserModel } from './BotUser';
import { invitationModel } from './Invitation';
import { apiKeyModel } from './ApiKey';
import { restHookModel } from './RestHook';
import { gdprExportModel } from './GdprExport';
import { gdprErasureModel } from './GdprErasure';
import { presenceChangeModel } from './PresenceChange';
import { stripeEventModel } from './StripeEvent';
import { operatorSeatModel } from './OperatorSeat';

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
    WidgetFile: widgetFileModel(connection),
    OfflineMessage: offlineMessageModel(connection),
    SavedReply: savedReplyModel(connection),
    QuestionGroup: questionGroupModel(connection),
    ConversationAssist: conversationAssistModel(connection),
    ThreadPost: threadPostModel(connection),
    BotUser: botUserModel(connection),
    Invitation: invitationModel(connection),
    ApiKey: apiKeyModel(connection),
    RestHook: restHookModel(connection),
    GdprExport: gdprExportModel(connection),
    GdprErasure: gdprErasureModel(connection),
    PresenceChange: presenceChangeModel(connection),
    StripeEvent: stripeEventModel(connection),
    OperatorSeat: operatorSeatModel(connection),
  };
}
export type Models = ReturnType<typeof createModels>;

/** Creates the indexes (unique e-mails, TTLs ...) of every model. */
export async function ensureIndexes(models: Models): Promise<void> {
  for (const model of Object.values(models)) await model.init();
}
