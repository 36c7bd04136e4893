import { expect } from 'chai';
import type { CommandStartedEvent } from 'mongodb';
import request from 'supertest';
import { signUpUser } from '../factories';
import { startTestServer, useServer } from '../helpers/app';
import { ACME, ALICE, eventEnvelope, eventually, firstWidgetId, setUpWidget, slackSignature } from './helpers';

/**
 * Every line Parley posts into a channel comes back from Slack as a `message` event. They are answered at once,
 * without Bolt's authorization read, and nothing else about the endpoint changes.
 */
describe("Slack events of Parley's own posts", () => {
  const server = useServer({}, (overrides) => startTestServer(overrides, { monitorCommands: true }));
  let channel = '';
  let botId = '';
  let botUserId = '';

  before(async () => {
    const user = await signUpUser(server);
    channel = await setUpWidget(server, user.token, await firstWidgetId(server, user.token));
    const inst = await server.models.Installation.findOne({ teamId: ACME, revokedAt: null }).lean();
    if (!inst) throw new Error('not installed');
    ({ botId, botUserId } = inst);
  });

  const deliver = (event: Record<string, unknown>, secret = server.config.slack.signingSecret) => {
    const body = eventEnvelope(ACME, { type: 'message', channel, ts: `${Date.now() / 1000}`, event_ts: '1.000001', ...event });
    return request(server.url).post('/slack/events').type('json').set(slackSignature(secret, body)).send(body);
  };

  /** The database commands Parley sends while `work` runs. */
  const commandsDuring = async (work: () => Promise<unknown>): Promise<string[]> => {
    const seen: string[] = [];
    const note = (e: CommandStartedEvent) => seen.push(`${e.commandName} ${String(e.command[e.commandName])}`);
    server.connection.getClient().on('commandStarted', note);
    try {
      await work();
    } finally {
      server.connection.getClient().off('commandStarted', note);
    }
    return seen;
  };

  it('acknowledges a post of its own (a relayed visitor line) without reading the database', async () => {
    // The first event of a workspace reads its installation once.
    await deliver({ subtype: 'bot_message', bot_id: botId, username: 'Visitor 1', text: 'warm-up' }).expect(200);
    const commands = await commandsDuring(async () => {
      await deliver({ subtype: 'bot_message', bot_id: botId, username: 'Visitor 1', text: 'hello from the widget' }).expect(200);
      await deliver({ user: botUserId, bot_id: botId, text: 'a note from Parley' }).expect(200);
    });
    // What handling an event would touch (other suites' servers' background work may show up in between).
    expect(commands.filter((c) => /installations|conversations|slackeventseens|messages/.test(c))).to.deep.equal([]);
  });

  it('answers 401 to a post of its own with a wrong signature, as to any other request', async () => {
    await deliver({ subtype: 'bot_message', bot_id: botId, text: 'forged' }, 'not-the-signing-secret').expect(401);
  });

  it("hands people's messages to Bolt's listeners as before", async () => {
    const seen: string[] = [];
    const note = (e: CommandStartedEvent) => seen.push(`${e.commandName} ${String(e.command[e.commandName])}`);
    server.connection.getClient().on('commandStarted', note);
    try {
      // A person's line in a thread: the listener (after Bolt's acknowledgement) looks the thread up.
      await deliver({ user: ALICE, text: 'hello', thread_ts: '1.000001' }).expect(200);
      await eventually(async () => expect(seen).to.include('find conversations'));
    } finally {
      server.connection.getClient().off('commandStarted', note);
    }
  });
});
