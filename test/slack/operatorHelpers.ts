/**
 * Driving Parley as an operator in the Slack sandbox: `/parley` commands with their ephemeral answers, a widget
 * with a visitor's open conversation, saved replies and question groups to use.
 */
import { expect } from 'chai';
import { encodeResponse } from '../../server/commands/savedReplies';
import type { EphemeralMessage } from '../../server/sandbox/slack';
import type { TestServer } from '../helpers/app';
import { ACME, ALICE, eventually, type SetUp, say, setUpRelayWidget, VisitorSocket } from '../relay/helpers';

/** Sends `/parley <text>` as `who` in `channel` and answers the ephemeral answer Parley gave on the response_url. */
export async function parley(server: TestServer, channel: string, text: string, who = ALICE, teamId = ACME): Promise<EphemeralMessage> {
  const before = server.slack.state.ephemeralsFor(teamId, who, channel).map((e) => e.id);
  const result = await server.slack.sendSlashCommand({ teamId, userId: who, channelId: channel, command: '/parley', text });
  expect(result.ok, `delivery of /parley ${text}`).to.equal(true);
  let answer: EphemeralMessage | undefined;
  await eventually(async () => {
    answer = server.slack.state.ephemeralsFor(teamId, who, channel).find((e) => !before.includes(e.id) && e.from === 'response_url');
    expect(answer, `answer to /parley ${text}`).to.not.equal(undefined);
  });
  return answer as EphemeralMessage;
}

/** Messages Parley posted in the channel itself (not in threads). */
export function channelPosts(server: TestServer, channel: string): string[] {
  return server.slack.state
    .channelMessages(channel)
    .filter((m) => !m.threadTs || m.threadTs === m.ts)
    .map((m) => m.text ?? '');
}

export type Chat = { socket: VisitorSocket; number: number; id: string; threadTs: string };

/** A visitor with an open conversation whose Slack thread exists. */
export async function openChat(server: TestServer, widget: SetUp, name = 'Erin'): Promise<Chat> {
  const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name, email: `${name.toLowerCase()}@visitor.test` } });
  await say(socket, 'Hello, is anyone there?');
  let found: Chat | undefined;
  await eventually(async () => {
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId, visitorId: { $exists: true } }).sort({ _id: -1 });
    expect(c?.threadTs).to.be.a('string').and.not.equal('');
    found = { socket, number: c?.number ?? 0, id: String(c?._id), threadTs: c?.threadTs ?? '' };
  });
  return found as Chat;
}

export async function addSavedReply(server: TestServer, widget: SetUp, fields: { label: string; response: string; shortcut: string }) {
  const ce = await widget.widget();
  return server.models.SavedReply.create({
    accountId: ce.accountId,
    ceId: ce._id,
    label: fields.label,
    response: encodeResponse(fields.response),
    shortcut: fields.shortcut,
  });
}

export async function addQuestionGroup(
  server: TestServer,
  widget: SetUp,
  fields: { label: string; shortcut: string; question: string; answers: string[] },
) {
  const ce = await widget.widget();
  await server.models.Account.updateOne({ _id: ce.accountId }, { $set: { planStripeId: 'parley_business_monthly' } });
  const tree = [
    {
      id: 'q1',
      text: fields.question,
      isQ: true,
      children: fields.answers.map((text, i) => ({ id: `a${i + 1}`, text, isQ: false, action: '', children: [] })),
    },
  ];
  return server.models.QuestionGroup.create({
    accountId: ce.accountId,
    uid: `qg${Math.random().toString(36).slice(2, 10)}`,
    label: fields.label,
    shortcut: fields.shortcut,
    treeJson: JSON.stringify(tree),
  });
}

/** App Homes refresh without the production rate limit's 10 s wait. */
export function fastHomes(server: TestServer, ms = 50): void {
  server.parley.homeTabs.minIntervalMs = ms;
}

export { setUpRelayWidget };
