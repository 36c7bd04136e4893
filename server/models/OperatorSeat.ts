import { type Connection, type Model, Schema, type Types } from 'mongoose';

/**
 * A Slack user answering visitors for an account in a calendar month. The first `maxOperators` people to reply
 * in a month take a seat (`seated`); others are recorded unseated and told so, once per conversation.
 */
export interface OperatorSeat {
  accountId: Types.ObjectId;
  /** 'YYYY-MM', UTC. */
  month: string;
  slackUserId: string;
  seated: boolean;
  /** Conversations in which an unseated operator was already told about the limit. */
  warnedConversationIds: Types.ObjectId[];
  createdAt: Date;
}

export const OperatorSeatSchema = new Schema<OperatorSeat>(
  {
    accountId: { type: Schema.Types.ObjectId, required: true },
    month: { type: String, required: true },
    slackUserId: { type: String, required: true },
    seated: { type: Boolean, required: true },
    warnedConversationIds: { type: [Schema.Types.ObjectId], default: [] },
    createdAt: { type: Date, default: () => new Date() },
  },
  { versionKey: false },
);
OperatorSeatSchema.index({ accountId: 1, month: 1, slackUserId: 1 }, { unique: true });

export type OperatorSeatModel = Model<OperatorSeat>;
export function operatorSeatModel(connection: Connection): OperatorSeatModel {
  return (
    (connection.models.OperatorSeat as OperatorSeatModel | undefined) ?? connection.model<OperatorSeat>('OperatorSeat', OperatorSeatSchema)
  );
}
