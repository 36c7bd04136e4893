import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * A file shown in a conversation. Visitor uploads keep their bytes here (at most 10 MB); operator uploads
 * keep only the Slack file id and are fetched from Slack with the bot token when the visitor opens them.
 */
export interface WidgetFile {
  ceId: Types.ObjectId;
  conversationId: Types.ObjectId | null;
  visitorId: Types.ObjectId | null;
  source: 'visitor' | 'slack' | 'team-avatar';
  name: string;
  size: number;
  mimetype: string;
  data: Buffer | null;
  slackTeamId: string;
  slackFileId: string;
  /**
   * The Slack file of an upload into a thread that may not have completed (set before the call that shares it):
   * a retry asks Slack whether it is shared before uploading again, so a lost answer never doubles the file.
   */
  slackPendingFileId: string;
  /** A screenshot the visitor sent because an operator asked for one: its thread post says so. */
  answersScreenshot?: boolean;
  createdAt: Date;
  updatedAt: Date;
}
export type WidgetFileDocument = HydratedDocument<WidgetFile>;

export const WidgetFileSchema = new Schema<WidgetFile>(
  {
    ceId: { type: Schema.Types.ObjectId, required: true },
    conversationId: { type: Schema.Types.ObjectId, default: null, index: true },
    visitorId: { type: Schema.Types.ObjectId, default: null },
    source: { type: String, enum: ['visitor', 'slack', 'team-avatar'], required: true },
    name: { type: String, default: 'file' },
    size: { type: Number, default: 0 },
    mimetype: { type: String, default: 'application/octet-stream' },
    data: { type: Buffer, default: null },
    slackTeamId: { type: String, default: '' },
    slackFileId: { type: String, default: '' },
    slackPendingFileId: { type: String, default: '' },
    answersScreenshot: { type: Boolean },
  },
  { timestamps: true },
);

export type WidgetFileModel = Model<WidgetFile>;
export function widgetFileModel(connection: Connection): WidgetFileModel {
  return (connection.models.WidgetFile as WidgetFileModel | undefined) ?? connection.model<WidgetFile>('WidgetFile', WidgetFileSchema);
}
