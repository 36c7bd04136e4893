import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * What the help center did, one document an event, for the Answers report:
 * - `search`: a visitor's search (`query`, `hits` found; 0 hits is a search that found nothing);
 * - `view`: an article opened (in the widget or on its public page);
 * - `helpful`: "Did this answer your question?" answered (`helpful` true or false) for `articleId`;
 * - `resolved`: a conversation resolved by an article (`articleId`, `conversationId`);
 * - `suggestionSent`: an operator sent a suggestion from Slack (`articleId`, or `suggestion`: 'savedReply' | 'pastAnswer').
 */
export const ANSWER_EVENT_KINDS = ['search', 'view', 'helpful', 'resolved', 'suggestionSent'] as const;
export type AnswerEventKind = (typeof ANSWER_EVENT_KINDS)[number];

export interface AnswerEvent {
  accountId: Types.ObjectId;
  ceId: Types.ObjectId;
  kind: AnswerEventKind;
  at: Date;
  articleId?: Types.ObjectId;
  conversationId?: Types.ObjectId;
  query?: string;
  language?: string;
  hits?: number;
  helpful?: boolean;
  suggestion?: string;
}
export type AnswerEventDocument = HydratedDocument<AnswerEvent>;

export const AnswerEventSchema = new Schema<AnswerEvent>({
  accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
  ceId: { type: Schema.Types.ObjectId, ref: 'ChatEndpoint', required: true },
  kind: { type: String, enum: ANSWER_EVENT_KINDS, required: true },
  at: { type: Date, required: true, default: () => new Date() },
  articleId: { type: Schema.Types.ObjectId, ref: 'Article' },
  conversationId: { type: Schema.Types.ObjectId, ref: 'Conversation' },
  query: { type: String },
  language: { type: String },
  hits: { type: Number },
  helpful: { type: Boolean },
  suggestion: { type: String },
});
AnswerEventSchema.index({ ceId: 1, at: 1 });
AnswerEventSchema.index({ accountId: 1, at: 1 });

export type AnswerEventModel = Model<AnswerEvent>;
export function answerEventModel(connection: Connection): AnswerEventModel {
  return (connection.models.AnswerEvent as AnswerEventModel | undefined) ?? connection.model<AnswerEvent>('AnswerEvent', AnswerEventSchema);
}
