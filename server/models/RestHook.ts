import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * The events a REST hook can subscribe to: the widget's webhooks, by the `event` field of their payloads, and
 * `visitor_message` (each message a visitor sends), which only REST hooks receive.
 */
export const REST_HOOK_EVENTS = [
  'conversation.started',
  'visitor_message',
  'conversation.archived',
  'offline_message',
  'conversation.rated',
  'conversation.unanswered',
] as const;
export type RestHookEvent = (typeof REST_HOOK_EVENTS)[number];

/**
 * A target URL subscribed with the Zapier key (the REST hooks pattern): every payload of its event, for every
 * widget of the account, is POSTed there, signed with the hook's secret. Removed with its key.
 */
export interface RestHook {
  accountId: Types.ObjectId;
  apiKeyId: Types.ObjectId;
  event: RestHookEvent;
  targetUrl: string;
  /** HMAC-SHA256 key of the X-Parley-Signature header; handed out once, at subscription. */
  secret: string;
  createdAt: Date;
}
export type RestHookDocument = HydratedDocument<RestHook>;

export const RestHookSchema = new Schema<RestHook>(
  {
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    apiKeyId: { type: Schema.Types.ObjectId, ref: 'ApiKey', required: true, index: true },
    event: { type: String, enum: REST_HOOK_EVENTS, required: true },
    targetUrl: { type: String, required: true },
    secret: { type: String, required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);
RestHookSchema.index({ accountId: 1, event: 1 });

export type RestHookModel = Model<RestHook>;
export function restHookModel(connection: Connection): RestHookModel {
  return (connection.models.RestHook as RestHookModel | undefined) ?? connection.model<RestHook>('RestHook', RestHookSchema);
}
