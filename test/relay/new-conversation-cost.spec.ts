/**
 * What one new conversation costs the database, from the visitor's first line to that line in the Slack thread
 * (the driver's command monitoring counts each command): the widget's bots, the account's billing state and
 * automatic question group and the REST hooks come from memory, the header and the line are claimed and removed
 * together, and the line reads neither the conversation nor the visitor again.
 */
import { expect } from 'chai';
import { FAST_RELAY, startTestServer, useServer } from '../helpers/app';
import { backgroundCommand, commandLog, eventually, type SetUp, say, setUpRelayWidget, VisitorSocket } from './helpers';

describe('a new conversation’s database operations', () => {
  // Presence asks Slack once for the test. Slack's pace is lifted: the header and the line go out back to back, and
  // the sandbox's real limits would answer the line 429 at once (a retry, and its operations, are Slack's pace's cost).
  const server = useServer({ relay: { ...FAST_RELAY, presenceTtlMs: 60_000, presenceRefreshMs: 60_000 } }, (overrides) =>
    startTestServer(overrides, { monitorCommands: true, slackRateLimits: false }),
  );
  let widget: SetUp;
  /** Not a new conversation's own: the commands beside every step (backgroundCommand), and the quota count's read of
   * the account (once a second per account). */
  const log = commandLog(
    server,
    (e) => !backgroundCommand(e) && !(String(e.command[e.commandName]) === 'accounts' && e.commandName === 'find'),
  );
  const { seen } = log;
  afterEach(() => log.stop());

  const lineInSlack = (text: string) =>
    eventually(async () => {
      const state = server.slack.state;
      const texts = state.channelMessages(widget.channel).flatMap((m) => state.replies(widget.channel, m.ts).map((r) => r.text));
      expect(texts).to.include(text);
    });

  it('takes at most 15 from the first line to that line in the Slack thread, the header included', async () => {
    widget = await setUpRelayWidget(server);
    // A first conversation of the widget fills what is kept in memory per widget and account.
    const warm = await VisitorSocket.hello(server, widget.uuid, {});
    await say(warm.socket, 'Warming up');
    await lineInSlack('Warming up');
    const { socket } = await VisitorSocket.hello(server, widget.uuid, {});
    try {
      log.start();
      await say(socket, 'Hello, is anyone there?');
      await lineInSlack('Hello, is anyone there?');
      // The line's ts is stored and its jobs removed right after Slack took it.
      await eventually(async () => expect(seen).to.include('delete outboxjobs'));
      log.stop();
      expect(seen.length, seen.join('\n')).to.be.at.most(15);
      // One outbox read, claim and removal for the header and the line together.
      expect(seen.filter((c) => c === 'find outboxjobs')).to.have.length(1);
      expect(seen.filter((c) => c === 'delete outboxjobs')).to.have.length(1);
    } finally {
      socket.close();
      warm.socket.close();
    }
  });
});
