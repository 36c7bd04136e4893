/**
 * The shared inbox's facts for the Team report tests, written as assignment, answers, ends and tags record them
 * (recordInboxEvents, which also keeps the report's day tallies), on the conversations of seed.ts (America/New_York, Mar 7–9 2026): Alice and Bob of the
 * sandbox's Acme workspace, and Gus, who left Slack (users.info no longer knows him; his conversation stored his name).
 * Each figure the tests expect is worked out beside the events.
 */
import { Types } from 'mongoose';
import { recordInboxEvent, recordInboxEvents } from '../../server/conversations/inboxEvents';
import type { Models } from '../../server/models';
import type { InboxEvent } from '../../server/models/InboxEvent';
import type { TestServer } from '../helpers/app';
import { ACME, ALICE, BOB, installWidget } from '../slack/helpers';
import { type Seeded, seedReportAccount } from './seed';

export const GUS = 'U0GUS00001';

type SeedEvent = Omit<Partial<InboxEvent>, 'at' | 'conversationId'> & { kind: InboxEvent['kind']; at: string; chat: number };

/**
 * Chats by their index in seed.ts CHATS: 0 Sat Mar 7 10:00 EST, 1 Sat 23:30 EST (Mar 8 in UTC), 2 Sun 03:30 EDT,
 * 3 Sun 12:00 EDT (nobody answered), 4 Sun 23:00 EDT (Mar 9 in UTC, open), 5 Mon Mar 9 11:00 EDT, 6 discarded,
 * 7 Sun Mar 1 (outside the range).
 */
export const EVENTS: SeedEvent[] = [
  // Alice: chats 0 and 1 (1 assigned twice: counted once). Waits: first 30 and 180 (median 105), next 120, 60, 90
  // (median 90); targets: 30 ✓, 120 ✓, 180 ✗, 60 (no target), 90 ✓: 3 of 4.
  { kind: 'assigned', chat: 0, at: '2026-03-07T15:00:30Z', operatorId: ALICE, byId: '' },
  { kind: 'response', chat: 0, at: '2026-03-07T15:01:00Z', operatorId: ALICE, responseKind: 'first', waitSecs: 30, withinTarget: true },
  { kind: 'response', chat: 0, at: '2026-03-07T15:05:00Z', operatorId: ALICE, responseKind: 'next', waitSecs: 120, withinTarget: true },
  { kind: 'ended', chat: 0, at: '2026-03-07T15:10:00Z', operatorId: ALICE },
  { kind: 'assigned', chat: 1, at: '2026-03-08T04:31:00Z', operatorId: ALICE, byId: ALICE },
  { kind: 'response', chat: 1, at: '2026-03-08T04:33:00Z', operatorId: ALICE, responseKind: 'first', waitSecs: 180, withinTarget: false },
  { kind: 'response', chat: 1, at: '2026-03-08T04:40:00Z', operatorId: ALICE, responseKind: 'next', waitSecs: 60, withinTarget: null },
  { kind: 'unassigned', chat: 1, at: '2026-03-08T04:42:00Z', operatorId: ALICE, byId: ALICE },
  { kind: 'assigned', chat: 1, at: '2026-03-08T04:44:00Z', operatorId: ALICE, byId: BOB },
  { kind: 'response', chat: 1, at: '2026-03-08T04:45:00Z', operatorId: ALICE, responseKind: 'next', waitSecs: 90, withinTarget: true },
  { kind: 'ended', chat: 1, at: '2026-03-08T04:50:00Z', operatorId: ALICE },
  // Bob: chats 2 and 4. Waits: first 10 and 40 (median 25; the 40 is Mon Mar 9 23:50 EDT, Mar 10 in UTC), next 600;
  // targets 10 ✓, 600 ✗, 40 ✓: 2 of 3.
  { kind: 'assigned', chat: 2, at: '2026-03-08T07:31:00Z', operatorId: BOB, byId: ALICE },
  { kind: 'response', chat: 2, at: '2026-03-08T07:32:00Z', operatorId: BOB, responseKind: 'first', waitSecs: 10, withinTarget: true },
  { kind: 'response', chat: 2, at: '2026-03-08T07:45:00Z', operatorId: BOB, responseKind: 'next', waitSecs: 600, withinTarget: false },
  { kind: 'ended', chat: 2, at: '2026-03-08T07:50:00Z', operatorId: BOB },
  { kind: 'tagged', chat: 2, at: '2026-03-08T07:51:00Z', operatorId: '', byId: BOB, tag: 'bug' },
  { kind: 'assigned', chat: 4, at: '2026-03-09T03:01:00Z', operatorId: BOB, byId: BOB },
  { kind: 'response', chat: 4, at: '2026-03-10T03:50:00Z', operatorId: BOB, responseKind: 'first', waitSecs: 40, withinTarget: true },
  // Nobody had chat 3 when it ended; Gus answered chat 5 without having it.
  { kind: 'ended', chat: 3, at: '2026-03-08T16:15:00Z', operatorId: '' },
  { kind: 'response', chat: 5, at: '2026-03-09T15:00:20Z', operatorId: GUS, responseKind: 'first', waitSecs: 20, withinTarget: true },
  { kind: 'ended', chat: 5, at: '2026-03-09T16:00:00Z', operatorId: '' },
  // Outside the range: Sun Mar 1, and Tue Mar 10 00:00 EDT.
  { kind: 'response', chat: 7, at: '2026-03-01T14:01:30Z', operatorId: ALICE, responseKind: 'first', waitSecs: 5000, withinTarget: false },
  { kind: 'assigned', chat: 5, at: '2026-03-10T04:00:00Z', operatorId: BOB, byId: BOB },
];

/** Who had each chat and its tags (chats 6, discarded, and 7, outside the range, carry billing and count nowhere). */
const CHAT_INBOX: { assigneeId?: string; agentSlackUserId?: string; agentName?: string; tags: string[] }[] = [
  { assigneeId: ALICE, agentSlackUserId: ALICE, tags: ['billing', 'refund'] },
  { assigneeId: ALICE, agentSlackUserId: ALICE, tags: ['billing'] },
  { assigneeId: BOB, agentSlackUserId: BOB, tags: ['bug'] },
  { tags: ['billing'] },
  { assigneeId: BOB, tags: [] },
  { agentSlackUserId: GUS, agentName: 'Gus', tags: ['billing', 'bug'] },
  { tags: ['billing'] },
  { tags: ['billing'] },
];

export async function seedTeamEvents(models: Models, accountId: Types.ObjectId, ceId: Types.ObjectId, chatIds: string[]): Promise<void> {
  for (const [i, inbox] of CHAT_INBOX.entries()) {
    await models.Conversation.updateOne({ _id: chatIds[i] }, { $set: inbox });
  }
  await recordInboxEvents(
    models,
    EVENTS.map(({ chat, at, ...e }) => ({
      ...e,
      accountId,
      ceId,
      conversationId: new Types.ObjectId(chatIds[chat]),
      teamId: ACME,
      at: new Date(at),
    })),
  );
  // Another widget's answer never counts here.
  await recordInboxEvent(models, {
    accountId,
    ceId: new Types.ObjectId(),
    conversationId: new Types.ObjectId(),
    kind: 'response',
    at: new Date('2026-03-08T10:00:00Z'),
    teamId: ACME,
    operatorId: ALICE,
    responseKind: 'first',
    waitSecs: 1,
    withinTarget: true,
  });
}

/**
 * seed.ts's account with its widget added to the sandbox's Acme workspace by Alice (so the report names operators as
 * Slack does) and the shared inbox's facts above.
 */
export async function seedTeamAccount(server: TestServer): Promise<Seeded> {
  const seeded = await seedReportAccount(server);
  await server.models.ChatEndpoint.updateOne({ _id: seeded.ceId }, { $set: { slackTeamId: ACME } });
  await installWidget(server, seeded.token, seeded.ceId, { team: ACME, user: ALICE });
  // Installing leaves setup at its channel step: back to the finished widget the reports show.
  await server.models.ChatEndpoint.updateOne({ _id: seeded.ceId }, { $set: { Step: 3, RoomName: 'support' } });
  await seedTeamEvents(server.models, seeded.accountId, new Types.ObjectId(seeded.ceId), seeded.chatIds);
  return seeded;
}
