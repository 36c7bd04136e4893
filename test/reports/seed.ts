/**
 * A seeded account for the report tests: one Pro widget in America/New_York with conversations, offline
 * messages and presence changes around the start of daylight saving time (2026-03-08, 02:00 EST → 03:00 EDT),
 * each with figures the tests compute by hand.
 */
import { randomBytes } from 'node:crypto';
import type { Types } from 'mongoose';
import request from 'supertest';
import type { Models } from '../../server/models';
import { TERMS_VERSION } from '../../server/shared/constants';
import type { PresenceCause } from '../../server/shared/reports';
import { messageSearchTerms, visitorSearchTerms } from '../../server/shared/searchTerms';
import { buildConfiguredWidget, createUserInDb } from '../factories';
import type { TestServer } from '../helpers/app';

export const ZONE = 'America/New_York';
export const PRO = 'parley_pro_monthly';
/** The controlled clock of the preset tests: Monday 2026-03-09, 14:00 in New York. */
export const NOW = new Date('2026-03-09T18:00:00Z');
/** When the seeded widget was added: Sun 2026-02-01, 12:00 in New York. */
export const WIDGET_CREATED = new Date('2026-02-01T17:00:00Z');

type SeedChat = {
  at: string;
  agent?: string;
  replyAfter?: number;
  endAfter?: number;
  rating?: 'up' | 'down';
  feedback?: string;
  trigger?: string;
  visitorMsgs: number;
  operatorMsgs: number;
  discarded?: boolean;
  visitor: string;
};

/** Start times in UTC, with their New York local time beside them. */
export const CHATS: SeedChat[] = [
  // 1: Sat Mar 7 10:00 EST
  {
    at: '2026-03-07T15:00:00Z',
    agent: 'Ana',
    replyAfter: 60,
    endAfter: 600,
    rating: 'up',
    feedback: 'Quick, thanks',
    trigger: 't1',
    visitorMsgs: 3,
    operatorMsgs: 2,
    visitor: 'Vera',
  },
  // 2: Sat Mar 7 23:30 EST (already Mar 8 in UTC)
  {
    at: '2026-03-08T04:30:00Z',
    agent: 'Ana',
    replyAfter: 180,
    endAfter: 1200,
    rating: 'down',
    feedback: 'Slow',
    visitorMsgs: 2,
    operatorMsgs: 1,
    visitor: 'Walt',
  },
  // 3: Sun Mar 8 03:30 EDT (just after the clocks jumped)
  {
    at: '2026-03-08T07:30:00Z',
    agent: 'Ben',
    replyAfter: 30,
    endAfter: 300,
    rating: 'up',
    feedback: '=SUM(A1:A9)',
    trigger: 't2',
    visitorMsgs: 4,
    operatorMsgs: 4,
    visitor: 'Xena',
  },
  // 4: Sun Mar 8 12:00 EDT, nobody answered
  { at: '2026-03-08T16:00:00Z', endAfter: 900, trigger: 't1', visitorMsgs: 1, operatorMsgs: 0, visitor: 'Yuri' },
  // 5: Sun Mar 8 23:00 EDT (Mar 9 in UTC), nobody answered, still open
  { at: '2026-03-09T03:00:00Z', visitorMsgs: 2, operatorMsgs: 0, visitor: 'Zoe' },
  // 6: Mon Mar 9 11:00 EDT
  {
    at: '2026-03-09T15:00:00Z',
    agent: 'Ben',
    replyAfter: 300,
    endAfter: 3600,
    rating: 'up',
    visitorMsgs: 5,
    operatorMsgs: 5,
    visitor: 'Vera',
  },
  // discarded with /parley discard: in no report
  {
    at: '2026-03-09T15:30:00Z',
    agent: 'Ben',
    replyAfter: 10,
    endAfter: 20,
    visitorMsgs: 1,
    operatorMsgs: 1,
    discarded: true,
    visitor: 'Walt',
  },
  // 8: Sun Mar 1 09:00 EST, outside the custom range
  { at: '2026-03-01T14:00:00Z', agent: 'Ana', replyAfter: 90, endAfter: 400, visitorMsgs: 1, operatorMsgs: 1, visitor: 'Xena' },
];

/** Offline messages: Sat Mar 7 12:00 EST, Sun Mar 8 20:00 EDT, Sun Mar 1 12:00 EST. */
export const OFFLINE_AT = ['2026-03-07T17:00:00Z', '2026-03-09T00:00:00Z', '2026-03-01T17:00:00Z'];

export const PRESENCE: { at: string; online: boolean; cause: PresenceCause }[] = [
  { at: '2026-03-07T01:00:00Z', online: false, cause: 'operating-hours' }, // Fri Mar 6 20:00 EST
  { at: '2026-03-07T14:00:00Z', online: true, cause: 'operating-hours' }, // Sat 09:00 EST
  { at: '2026-03-07T22:00:00Z', online: false, cause: 'operating-hours' }, // Sat 17:00 EST
  { at: '2026-03-08T06:00:00Z', online: true, cause: 'manual-mode' }, // Sun 01:00 EST
  { at: '2026-03-08T09:00:00Z', online: false, cause: 'switched-off' }, // Sun 05:00 EDT
  { at: '2026-03-09T02:00:00Z', online: true, cause: 'switched-on' }, // Sun 22:00 EDT
  { at: '2026-03-09T10:00:00Z', online: false, cause: 'slack-activity' }, // Mon 06:00 EDT
];

/** The custom range the report specs ask for: Sat 7 to Mon 9 March 2026 in New York, across the clocks' change. */
export const CUSTOM_RANGE = { tz: ZONE, startDate: '2026-03-07T00:00:00', endDate: '2026-03-09T23:59:59' };

/** GET /v1/reports/<ceId>/<path> with `query`, signed in with `token` (none, or '': no session). */
export function reportRequest(
  server: Pick<TestServer, 'url'>,
  ceId: string,
  path: string,
  query: Record<string, string | number | string[]> = {},
  token?: string,
): request.Test {
  const req = request(server.url).get(`/v1/reports/${ceId}/${path}`).query(query);
  return token ? req.set('Authorization', `Bearer ${token}`) : req;
}

export type Seeded = { token: string; ceId: string; accountId: Types.ObjectId; chatIds: string[]; email: string; password: string };

export async function seedReportAccount(
  server: Pick<TestServer, 'models' | 'config'>,
  opts: { plan?: string; admin?: boolean } = {},
): Promise<Seeded> {
  const { models } = server;
  const { user, account, token, password } = await createUserInDb(server, { admin: opts.admin ?? true, ActiveTOSPP: TERMS_VERSION });
  await models.Account.updateOne({ _id: account._id }, { $set: { subscriptionStatus: 'active', planStripeId: opts.plan ?? PRO } });
  const ce = await models.ChatEndpoint.findOne({ accountId: account._id });
  if (!ce) throw new Error('the seeded account has no widget');
  await models.ChatEndpoint.updateOne(
    { _id: ce._id },
    { $set: { ...buildConfiguredWidget({ RoomName: 'support' }), tz: ZONE, noAnswerMessageAfterSecs: 120 } },
  );
  // The widget was added before every seeded fact (the availability report shows nothing before a widget existed).
  await models.ChatEndpoint.collection.updateOne({ _id: ce._id }, { $set: { createdAt: WIDGET_CREATED } });
  const chatIds = await seedChats(models, account._id, ce._id);
  await models.OfflineMessage.collection.insertMany(
    OFFLINE_AT.map((at) => ({
      accountId: account._id,
      ceId: ce._id,
      visitorId: null,
      name: 'N',
      email: 'n@example.com',
      message: 'Hello',
      pageUrl: '',
      country: '',
      createdAt: new Date(at),
      updatedAt: new Date(at),
    })),
  );
  await models.PresenceChange.insertMany(
    PRESENCE.map((p) => ({ accountId: account._id, ceId: ce._id, at: new Date(p.at), online: p.online, cause: p.cause })),
  );
  return { token, ceId: String(ce._id), accountId: account._id, chatIds, email: user.email, password };
}

async function seedChats(models: Models, accountId: Types.ObjectId, ceId: Types.ObjectId): Promise<string[]> {
  const visitors = new Map<string, Types.ObjectId>();
  for (const name of new Set(CHATS.map((c) => c.visitor))) {
    const v = await models.Visitor.create({
      accountId,
      ceId,
      tokenHash: randomBytes(16).toString('hex'),
      name,
      email: `${name.toLowerCase()}@example.com`,
      location: { country: 'US', city: 'Boston' },
      currentPage: 'https://shop.example.com/pricing',
      identUserId: `u-${name}`,
      identTraits: { plan: 'gold' },
    });
    visitors.set(name, v._id);
  }
  const ids: string[] = [];
  let number = 0;
  for (const c of CHATS) {
    const started = new Date(c.at).getTime();
    const at = (secs?: number) => (secs === undefined ? null : new Date(started + secs * 1000));
    const conversation = await models.Conversation.create({
      accountId,
      ceId,
      number: ++number,
      visitorId: visitors.get(c.visitor),
      status: c.endAfter === undefined ? 'open' : 'ended',
      startedAt: new Date(started),
      endedAt: at(c.endAfter),
      firstResponseAt: at(c.replyAfter),
      agentName: c.agent ?? '',
      rating: c.rating ?? null,
      feedback: c.feedback ?? '',
      triggerUid: c.trigger ?? '',
      pageUrl: 'https://shop.example.com/pricing?plan=gold&ref=newsletter',
      slackChannel: 'C0SUPPORT1',
      threadTs: `${started / 1000}.000100`,
      visitorMsgs: c.visitorMsgs,
      operatorMsgs: c.operatorMsgs,
      discarded: c.discarded ?? false,
      lastSeq: 2,
      // What the relay keeps as the chat's messages are stored (server/conversations/history.ts).
      firstLine: `Hi, I am ${c.visitor}`,
      searchTerms: [
        ...new Set([
          ...visitorSearchTerms({ name: c.visitor, email: `${c.visitor.toLowerCase()}@example.com` }),
          ...messageSearchTerms(`Hi, I am ${c.visitor}`),
          ...messageSearchTerms('How can I help?'),
        ]),
      ],
    });
    await models.Message.insertMany([
      { conversationId: conversation._id, seq: 1, kind: 'msg', from: 'visitor', text: `Hi, I am ${c.visitor}` },
      {
        conversationId: conversation._id,
        seq: 2,
        kind: 'msg',
        from: 'operator',
        text: 'How can I help?',
        author: { name: c.agent ?? 'Parley', avatarUrl: '' },
      },
    ]);
    ids.push(String(conversation._id));
  }
  return ids;
}
