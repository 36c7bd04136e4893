import { type Connection, type Model, Schema, type Types } from 'mongoose';

/**
 * Conversations removed by data retention, counted per account and calendar month (UTC) of their start, so the
 * monthly quota still counts them after their documents are gone.
 */
export interface DeletedConversations {
  accountId: Types.ObjectId;
  /** First instant of the month (UTC) the conversations started in. */
  month: Date;
  count: number;
}
const DeletedConversationsSchema = new Schema<DeletedConversations>({
  accountId: { type: Schema.Types.ObjectId, required: true },
  month: { type: Date, required: true },
  count: { type: Number, default: 0 },
});
DeletedConversationsSchema.index({ accountId: 1, month: 1 }, { unique: true });

export type DeletedConversationsModel = Model<DeletedConversations>;
export function deletedConversationsModel(connection: Connection): DeletedConversationsModel {
  return (
    (connection.models.DeletedConversations as DeletedConversationsModel | undefined) ??
    connection.model<DeletedConversations>('DeletedConversations', DeletedConversationsSchema)
  );
}
