/**
 * A widget says hello: the visitor its token names (only a token issued by this widget counts), brought up to date
 * with the page and what the website tells of them, or a new visitor with a new token.
 */
import { hashToken, newVisitorToken } from '../conversations/visitors';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { VisitorDocument } from '../models/Visitor';
import type { ClientFrame } from '../shared/widget-protocol';

type Hello = Extract<ClientFrame, { t: 'hello' }>;

export async function identifyVisitor(
  models: Models,
  input: {
    ce: ChatEndpointDocument;
    token?: string;
    identity: Hello['identity'];
    page: Hello['page'];
    /** Kept only when the widget collects visitor metadata. */
    userAgent: string;
    country: string;
    /** The browser's preferred language (a BCP 47 tag, or ''), kept like the user agent. */
    language: string;
  },
): Promise<{ visitor: VisitorDocument; token: string }> {
  const { ce, identity } = input;
  // A token only ever opens the visitor of the widget it was issued for: another widget's token is a stranger.
  const known = input.token ? await models.Visitor.findOne({ tokenHash: hashToken(input.token), ceId: ce._id }, { _id: 1 }).lean() : null;
  if (known && input.token) {
    const changes: Record<string, unknown> = { currentPage: input.page.url, pageTitle: input.page.title, lastSeenAt: new Date() };
    if (ce.collectVisitorMetaData) {
      changes.userAgent = input.userAgent;
      if (input.language) changes.language = input.language;
      if (input.country) changes['location.country'] = input.country;
    }
    if (identity?.name) changes.name = identity.name;
    if (identity?.email) changes.email = identity.email;
    if (identity?.userId) changes.identUserId = identity.userId;
    if (identity?.traits) changes.identTraits = identity.traits;
    const visitor = await models.Visitor.findOneAndUpdate({ _id: known._id }, { $set: changes }, { returnDocument: 'after' });
    if (visitor) return { visitor, token: input.token };
  }
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
    identUserId: identity?.userId ?? '',
    identTraits: identity?.traits ?? {},
  });
  return { visitor, token };
}
