import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

export const GDPR_EXPORT_STATUSES = ['running', 'ready', 'failed'] as const;
export type GdprExportStatus = (typeof GDPR_EXPORT_STATUSES)[number];

/** One export of everything Parley holds for an account: built in the background into one zip file. */
export interface GdprExport {
  accountId: Types.ObjectId;
  requestedBy: Types.ObjectId;
  status: GdprExportStatus;
  /** Records written so far, of `total` counted when the export started. */
  done: number;
  total: number;
  /** Size of the finished archive in bytes. */
  size: number;
  /** The download link stops working then, and the file is deleted. */
  expiresAt: Date | null;
  finishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
export type GdprExportDocument = HydratedDocument<GdprExport>;

export const GdprExportSchema = new Schema<GdprExport>(
  {
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true, index: true },
    requestedBy: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    status: { type: String, enum: GDPR_EXPORT_STATUSES, default: 'running' },
    done: { type: Number, default: 0 },
    total: { type: Number, default: 0 },
    size: { type: Number, default: 0 },
    expiresAt: { type: Date, default: null },
    finishedAt: { type: Date, default: null },
  },
  { timestamps: true },
);

export type GdprExportModel = Model<GdprExport>;
export function gdprExportModel(connection: Connection): GdprExportModel {
  return (connection.models.GdprExport as GdprExportModel | undefined) ?? connection.model<GdprExport>('GdprExport', GdprExportSchema);
}
