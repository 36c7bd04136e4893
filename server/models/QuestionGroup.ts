import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * A scripted set of questions with answer buttons, shared by every widget of an account. At most one group
 * of an account is `auto` (started by itself on a new conversation). `treeJson` is the normalised tree of
 * server/shared/questionGroups.ts, as JSON text; `prompt` is sanitised HTML (a, strong, b, br).
 */
export interface QuestionGroup {
  accountId: Types.ObjectId;
  /** 10 random characters, made by whoever creates the group (the console or the API). */
  uid: string;
  label: string;
  shortcut: string;
  auto: boolean;
  prompt: string;
  treeJson: string;
  /**
   * A tag a conversation gets when its visitor answers this group (the first answer they pick), if the conversation's
   * widget lists it (ChatEndpoint `tags`); '' for none. Cleared when no widget of the account lists it any more.
   */
  tag: string;
  createdAt: Date;
  updatedAt: Date;
}
export type QuestionGroupDocument = HydratedDocument<QuestionGroup>;

export const QuestionGroupSchema = new Schema<QuestionGroup>(
  {
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true, index: true },
    uid: { type: String, required: true, unique: true },
    label: { type: String, required: true },
    shortcut: { type: String, default: '' },
    auto: { type: Boolean, default: false },
    prompt: { type: String, default: '' },
    treeJson: { type: String, default: '[]' },
    tag: { type: String, default: '' },
  },
  { timestamps: true },
);
QuestionGroupSchema.index({ accountId: 1, shortcut: 1 }, { unique: true, partialFilterExpression: { shortcut: { $gt: '' } } });

export type QuestionGroupModel = Model<QuestionGroup>;
export function questionGroupModel(connection: Connection): QuestionGroupModel {
  return (
    (connection.models.QuestionGroup as QuestionGroupModel | undefined) ??
    connection.model<QuestionGroup>('QuestionGroup', QuestionGroupSchema)
  );
}
