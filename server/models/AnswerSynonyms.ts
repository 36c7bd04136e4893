import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * The words a widget's owner says mean the same in their help center's search: each group one line of
 * comma-separated words or phrases ("pw, password, passcode"). One document a widget.
 */
export interface AnswerSynonyms {
  accountId: Types.ObjectId;
  ceId: Types.ObjectId;
  groups: string[];
  updatedAt: Date;
  createdAt: Date;
}
export type AnswerSynonymsDocument = HydratedDocument<AnswerSynonyms>;

export const AnswerSynonymsSchema = new Schema<AnswerSynonyms>(
  {
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    ceId: { type: Schema.Types.ObjectId, ref: 'ChatEndpoint', required: true, unique: true },
    groups: { type: [String], default: [] },
  },
  { timestamps: true },
);

export type AnswerSynonymsModel = Model<AnswerSynonyms>;
export function answerSynonymsModel(connection: Connection): AnswerSynonymsModel {
  return (
    (connection.models.AnswerSynonyms as AnswerSynonymsModel | undefined) ??
    connection.model<AnswerSynonyms>('AnswerSynonyms', AnswerSynonymsSchema)
  );
}
