/**
 * A widget says hello: the visitor its token names (only a token issued by this widget counts), brought up to date
 * with the page and what the website tells of them, or a new visitor with a new token.
 *
 * An identity whose userHash holds (conversations/identity.ts) is the site's user for sure: every browser saying
 * so gets that user's one visitor, and so their conversations. A browser whose own visitor is anonymous hands it to
 * the user (their chat before signing in carries on); a browser of another verified user gets a new token. Any other
 * identity is a label on the browser's own visitor and never opens another one; it never relabels a verified
 * visitor, and with `requireVerifiedIdentity` it is dropped.
 */
import { verifiedIdentity } from '../conversations/identity';
import { findVisitorByToken, hashToken, newVisitorToken, searchableAs } from '../conversations/visitors';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { VisitorDocument } from '../models/Visitor';
import type { ClientFrame } from '../shared/widget-protocol';

type Hello = Extract<ClientFrame, { t: 'hello' }>;
type Identity = NonNullable<Hello['identity']>;

/** How hello's identity was taken: none given, proven by its userHash, kept as a label, or dropped. */
export type IdentityOutcome = 'none' | 'verified' | 'unverified' | 'dropped';

/** A verified user's browsers beyond this many: the oldest token is forgotten (that browser starts over). */
const MAX_DEVICE_TOKENS = 50;

export async function identifyVisitor(
  models: Models,
  input: IdentifyInput,
): Promise<{ visitor: VisitorDocument; token: string; identity: IdentityOutcome }> {
  const known = input.token ? await findVisitorByToken(models.Visitor, input.token, input.ce._id) : null;
  const result = await identify(models, input, known);
  const { visitor } = result;
  // A name or e-mail told now finds the visitor's chats in the history search from now on.
  const relabelled = !known?._id.equals(visitor._id) || known.name !== visitor.name || known.email !== visitor.email;
  if (relabelled && (visitor.name || visitor.email)) await searchableAs(models, visitor._id, visitor);
  return result;
}

type IdentifyInput = {
  ce: ChatEndpointDocument;
  token?: string;
  identity: Hello['identity'];
  page: Hello['page'];
  /** Kept only when the widget collects visitor metadata. */
  userAgent: string;
  country: string;
  /** The browser's preferred language (a BCP 47 tag, or ''), kept like the user agent. */
  language: string;
  /** The language tag of the visitor's mails and their IANA time zone ('' when not told): always kept. */
  locale?: string;
  timeZone?: string;
};

async function identify(
  models: Models,
  input: IdentifyInput,
  known: VisitorDocument | null,
): Promise<{ visitor: VisitorDocument; token: string; identity: IdentityOutcome }> {
  const { ce } = input;
  const claimed = input.identity && (input.identity.userId || input.identity.name || input.identity.email || input.identity.traits);
  const verified = claimed && input.identity ? verifiedIdentity(ce.identitySecret, input.identity) : null;
  const outcome: IdentityOutcome = !claimed ? 'none' : verified ? 'verified' : ce.requireVerifiedIdentity ? 'dropped' : 'unverified';
  const identity = outcome === 'dropped' ? undefined : input.identity;

  // `known`: a token only ever opens the visitor of the widget it was issued for; another widget's token is a stranger.
  const visit: Record<string, unknown> = { currentPage: input.page.url, pageTitle: input.page.title, lastSeenAt: new Date() };
  if (input.locale) visit.locale = input.locale;
  if (input.timeZone) visit.timeZone = input.timeZone;
  if (ce.collectVisitorMetaData) {
    visit.userAgent = input.userAgent;
    if (input.language) visit.language = input.language;
    if (input.country) visit['location.country'] = input.country;
  }

  if (verified && identity) {
    const changes = { ...visit, ...labels(identity), verifiedEmail: identity.email ?? '' };
    if (known && input.token && known.verifiedUserId === verified) {
      const visitor = await models.Visitor.findOneAndUpdate({ _id: known._id }, { $set: changes }, { returnDocument: 'after' });
      if (visitor) return { visitor, token: input.token, identity: outcome };
    }
    // The user's visitor from another browser, or this browser's anonymous visitor handed to the user.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const owner = await models.Visitor.findOne({ ceId: ce._id, verifiedUserId: verified }, { _id: 1 }).lean();
      if (owner) return { ...(await addDevice(models, owner._id, changes)), identity: outcome };
      try {
        if (known && input.token && !known.verifiedUserId) {
          const visitor = await models.Visitor.findOneAndUpdate(
            { _id: known._id, verifiedUserId: { $in: ['', null] } },
            { $set: { ...changes, verifiedUserId: verified } },
            { returnDocument: 'after' },
          );
          if (visitor) return { visitor, token: input.token, identity: outcome };
        } else {
          const created = await createVisitor(models, input, identity, { verifiedUserId: verified, verifiedEmail: identity.email ?? '' });
          return { ...created, identity: outcome };
        }
      } catch (error) {
        // Another browser of the same user made the visitor first: this one joins it on the next round.
        if (!isDuplicateKey(error)) throw error;
      }
    }
  }

  if (known && input.token) {
    // A claim without proof never relabels a verified visitor.
    const changes = identity && !known.verifiedUserId ? { ...visit, ...labels(identity) } : visit;
    const visitor = await models.Visitor.findOneAndUpdate({ _id: known._id }, { $set: changes }, { returnDocument: 'after' });
    if (visitor) return { visitor, token: input.token, identity: outcome };
  }
  return { ...(await createVisitor(models, input, identity, {})), identity: outcome };
}

/** The fields of the identity that name the visitor; absent ones keep what is stored. */
function labels(identity: Identity): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  if (identity.name) changes.name = identity.name;
  if (identity.email) changes.email = identity.email;
  if (identity.userId) changes.identUserId = identity.userId;
  if (identity.traits) changes.identTraits = identity.traits;
  return changes;
}

/** A new token for one more browser of a verified visitor. */
async function addDevice(
  models: Models,
  visitorId: VisitorDocument['_id'],
  changes: Record<string, unknown>,
): Promise<{ visitor: VisitorDocument; token: string }> {
  const token = newVisitorToken();
  const visitor = await models.Visitor.findOneAndUpdate(
    { _id: visitorId },
    { $set: changes, $push: { deviceTokenHashes: hashToken(token) } },
    { returnDocument: 'after' },
  );
  if (!visitor) throw new Error('The verified visitor went away while a browser joined it');
  if (visitor.deviceTokenHashes.length > MAX_DEVICE_TOKENS)
    await models.Visitor.updateOne({ _id: visitorId }, { $pop: { deviceTokenHashes: -1 } });
  return { visitor, token };
}

async function createVisitor(
  models: Models,
  input: IdentifyInput,
  identity: Identity | undefined,
  verified: { verifiedUserId?: string; verifiedEmail?: string },
): Promise<{ visitor: VisitorDocument; token: string }> {
  const { ce } = input;
  const token = newVisitorToken();
  const visitor = await models.Visitor.create({
    accountId: ce.accountId,
    ceId: ce._id,
    tokenHash: hashToken(token),
    name: identity?.name ?? '',
    email: identity?.email ?? '',
    location: { country: ce.collectVisitorMetaData ? input.country : '', city: '' },
    currentPage: input.page.url,
    pageTitle: input.page.title,
    userAgent: ce.collectVisitorMetaData ? input.userAgent : '',
    language: ce.collectVisitorMetaData ? input.language : '',
    locale: input.locale ?? '',
    timeZone: input.timeZone ?? '',
    identUserId: identity?.userId ?? '',
    identTraits: identity?.traits ?? {},
    ...verified,
  });
  return { visitor, token };
}

function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}
