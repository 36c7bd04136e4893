import { type Connection, type Model, Schema, type Types } from 'mongoose';

/** What became of a visitor's mail answer. */
export type InboundOutcome = 'posted' | 'autoReply' | 'bounce' | 'empty';

/**
 * A mail that came in for a conversation (through the SMTP receiver or the provider's webhook), once per
 * Message-ID: a second delivery of the same mail finds it and only counts itself in `duplicates`. Dropped mails
 * (auto-replies, bounces) are kept with their outcome, so they are counted and never posted.
 */
export interface InboundMail {
  messageId: string;
  conversationId: Types.ObjectId | null;
  outcome: InboundOutcome;
  /** The sender as the mail said. */
  from: string;
  duplicates: number;
  createdAt: Date;
  updatedAt: Date;
}

export const InboundMailSchema = new Schema<InboundMail>(
  {
    messageId: { type: String, required: true, unique: true },
    conversationId: { type: Schema.Types.ObjectId, default: null },
    outcome: { type: String, enum: ['posted', 'autoReply', 'bounce', 'empty'], required: true },
    from: { type: String, default: '' },
    duplicates: { type: Number, default: 0 },
  },
  { timestamps: true },
);
InboundMailSchema.index({ conversationId: 1 });

export type InboundMailModel = Model<InboundMail>;
export function inboundMailModel(connection: Connection): InboundMailModel {
  return (connection.models.InboundMail as InboundMailModel | undefined) ?? connection.model<InboundMail>('InboundMail', InboundMailSchema);
}
