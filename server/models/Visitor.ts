import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';
import { QUERY_DELETES, QUERY_UPDATES, shortReads } from '../shortReads';

/**
 * Someone on a website with a widget. Identified by a random token kept in the browser's localStorage;
 * only its SHA-256 is stored, so a database leak does not let anyone take over conversations.
 */
export interface Visitor {
  accountId: Types.ObjectId;
  /** The ChatEndpoint (widget) the token was issued for; a token never opens another widget's conversations. */
  ceId: Types.ObjectId;
  tokenHash: string;
  name: string;
  email: string;
  /** Derived from the IP when collectVisitorMetaData is on. */
  location: { country: string; city: string };
  currentPage: string;
  pageTitle: string;
  userAgent: string;
  /** The browser's preferred language (BCP 47, e.g. de-DE), kept when collectVisitorMetaData is on. */
  language: string;
  /**
   * The language tag the visitor's mails are written and dated in (within the widget's language the widget chose
   * for them, e.g. fr-CA), set at every hello: needed to write to them, so kept whatever collectVisitorMetaData says.
   */
  locale: string;
  /** The browser's IANA time zone (Europe/Paris) from hello, '' when not told: the times in their mails. */
  timeZone: string;
  identUserId: string;
  identTraits: Record<string, string | number | boolean | null>;
  /**
   * The site's user id proven by a valid userHash ('' for anonymous and merely claimed identities): one visitor per
   * verified user and widget, whatever browser or device they come from.
   */
  verifiedUserId: string;
  /** The e-mail address the verified identify gave ('' if none): Slack marks the visitor's e-mail verified while it is this one. */
  verifiedEmail: string;
  /** Hashes of the tokens issued to a verified visitor's other browsers (tokenHash is the first one's). */
  deviceTokenHashes: string[];
  acceptedPrivacyAt: Date | null;
  /** Set by the unsubscribe link of a mail of unseen replies: no such mail goes to this visitor again. */
  emailUnsubscribedAt: Date | null;
  lastSeenAt: Date;
  createdAt: Date;
  updatedAt: Date;
}
export type VisitorDocument = HydratedDocument<Visitor>;

export const VisitorSchema = new Schema<Visitor>(
  {
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    ceId: { type: Schema.Types.ObjectId, ref: 'ChatEndpoint', required: true, index: true },
    tokenHash: { type: String, required: true, unique: true },
    name: { type: String, default: '' },
    email: { type: String, default: '' },
    location: {
      country: { type: String, default: '' },
      city: { type: String, default: '' },
    },
    currentPage: { type: String, default: '' },
    pageTitle: { type: String, default: '' },
    userAgent: { type: String, default: '' },
    language: { type: String, default: '' },
    locale: { type: String, default: '' },
    timeZone: { type: String, default: '' },
    identUserId: { type: String, default: '' },
    identTraits: { type: Schema.Types.Mixed, default: () => ({}) },
    verifiedUserId: { type: String, default: '' },
    verifiedEmail: { type: String, default: '' },
    deviceTokenHashes: { type: [String], default: [], index: true },
    acceptedPrivacyAt: { type: Date, default: null },
    emailUnsubscribedAt: { type: Date, default: null },
    lastSeenAt: { type: Date, default: () => new Date() },
  },
  { timestamps: true, minimize: false },
);

VisitorSchema.index({ ceId: 1, verifiedUserId: 1 }, { unique: true, partialFilterExpression: { verifiedUserId: { $gt: '' } } });

export type VisitorModel = Model<Visitor>;
export function visitorModel(connection: Connection): VisitorModel {
  return (connection.models.Visitor as VisitorModel | undefined) ?? connection.model<Visitor>('Visitor', VisitorSchema);
}

/** What a visitor's posts in Slack are signed with (conversations/visitors.ts `visitorLabel`). */
export type VisitorLabelFields = Pick<Visitor, 'name' | 'email'>;
const LABEL_TTL_MS = 1000;

/**
 * Visitors' names and e-mail addresses as every visitor line's Slack post asks them, kept for a second per database
 * (the model), so a line costs no read for them. Every write of a visitor through mongoose in this process that may
 * change them drops its entry once it is done (the hooks below); another process's write is seen within LABEL_TTL_MS.
 */
const labels = shortReads<VisitorModel, VisitorLabelFields | null>(LABEL_TTL_MS);

export function visitorLabelFields(Visitor: VisitorModel, visitorId: Types.ObjectId): Promise<VisitorLabelFields | null> {
  return labels.get(Visitor, String(visitorId), () =>
    Visitor.collection.findOne<VisitorLabelFields>({ _id: visitorId }, { projection: { name: 1, email: 1 } }),
  );
}

/** Whether an update may change a visitor's name or e-mail: any but one whose operators all leave both alone. */
function mayChangeLabel(update: unknown): boolean {
  if (!update || typeof update !== 'object' || Array.isArray(update)) return true;
  for (const [op, fields] of Object.entries(update)) {
    if (!op.startsWith('$')) return true;
    if (!fields || typeof fields !== 'object') return true;
    for (const key of Object.keys(fields))
      if (key === 'name' || key === 'email' || key.startsWith('name.') || key.startsWith('email.')) return true;
  }
  return false;
}

for (const write of QUERY_UPDATES) {
  VisitorSchema.post(write, function () {
    if (!mayChangeLabel(this.getUpdate())) return;
    const id = (this.getFilter() as { _id?: unknown })._id;
    const one = id && (typeof id === 'string' || (typeof id === 'object' && '_bsontype' in id)) ? String(id) : null;
    labels.drop(this.model as VisitorModel, one ?? (() => true));
  });
}
for (const write of QUERY_DELETES) {
  VisitorSchema.post(write, function () {
    labels.drop(this.model as VisitorModel, () => true);
  });
}
VisitorSchema.post('save', function () {
  labels.drop(this.constructor as VisitorModel, String(this._id));
});
