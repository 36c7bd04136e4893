/**
 * What one new conversation costs the database, from the visitor's first line to that line in the Slack thread
 * (the driver's command monitoring counts each command): the widget's bots, the account's billing state and
 * automatic question group and the REST hooks come from memory, the header and the line run under the claims they
 * were stored with and are removed together, without a read of their key, and the header reads neither the
 * conversation nor the visitor again.
 */
import { expect } from 'chai';
import { FAST_RELAY, startTestServer, useServer } from '../helpers/app';
import {
  backgroundCommand,
  cheapestRun,
  commandLog,
  commandText,
  eventually,
  KEPT_A_SECOND,
  type SetUp,
  say,
  setUpRelayWidget,
  VisitorSocket,
} from './helpers';

describe('a new conversation’s database operations', () => {
  // Presence asks Slack once for the test. Slack's pace is lifted: the header and the line go out back to back, and
  // the sandbox's real limits would answer the line 429 at once (a retry, and its operations, are Slack's pace's cost).
  const server = useServer({ relay: { ...FAST_RELAY, presenceTtlMs: 60_000, presenceRefreshMs: 60_000 } }, (overrides) =>
    startTestServer(overrides, { monitorCommands: true, slackRateLimits: false }),
  );
  let widget: SetUp;
  /** Not a new conversation's own: the commands beside every step (backgroundCommand), and the reads of what is kept
   * a second (the quota count's account, the widget's settings), which a loaded machine's run passes. */
  const log = commandLog(server, (e) => !backgroundCommand(e) && !KEPT_A_SECOND.includes(commandText(e)));
  const { seen } = log;
  afterEach(() => log.stop());

  const lineInSlack = (text: string) =>
    eventually(async () => {
      const state = server.slack.state;
      const texts = state.channelMessages(widget.channel).flatMap((m) => state.replies(widget.channel, m.ts).map((r) => r.text));
      expect(texts).to.include(text);
    });

  it('takes at most 11 from the first line to that line in the Slack thread (the header and the Suggested post queued included), and at most 7 for its Suggested post, its visitor not read', async () => {
    widget = await setUpRelayWidget(server);
    // A first conversation of the widget fills what is kept in memory per widget and account.
    const warm = await VisitorSocket.hello(server, widget.uuid, {});
    await say(warm.socket, 'Warming up');
    await lineInSlack('Warming up');
    // Its Suggested post's job too (it runs after the line).
    await eventually(async () => expect(await server.models.OutboxJob.countDocuments({})).to.equal(0));
    const sockets: VisitorSocket[] = [warm.socket];
    try {
      const measured = await cheapestRun(
        3,
        async (attempt) => {
          const { socket } = await VisitorSocket.hello(server, widget.uuid, {});
          sockets.push(socket);
          const text = `Hello, is anyone there? (${attempt + 1})`;
          log.start();
          await say(socket, text);
          await lineInSlack(text);
          // The line's ts is stored and its jobs removed right after Slack took it; then the thread's Suggested post
          // is worked out by its own job (queued after the ack, run after the header and the line: the same key).
          await eventually(async () => expect(seen.filter((c) => c === 'delete outboxjobs')).to.have.length(2));
          log.stop();
          return seen;
        },
        (run) => {
          const lineDone = run.indexOf('delete outboxjobs') + 1;
          return lineDone <= 11 && run.length - lineDone <= 4;
        },
      );
      const lineDone = measured.indexOf('delete outboxjobs') + 1;
      const line = measured.slice(0, lineDone);
      // 11, the Suggested post's job queued included: the conversation's insert takes the first line's seq.
      expect(line.length, line.join('\n')).to.be.at.most(11);
      expect(line.filter((c) => c === 'findAndModify conversations')).to.deep.equal([]);
      // The header and the line are stored claimed by this process, the deployment's only one, which knows they are
      // all the key has: no outbox read, no claim's update, one removal for both.
      expect(line.filter((c) => c.endsWith(' outboxjobs') && c !== 'insert outboxjobs')).to.deep.equal(['delete outboxjobs']);
      // The header job gets the conversation and its visitor as they were stored and read to open it: each is read
      // once, before the conversation is stored.
      expect(line.filter((c) => c === 'find visitors' || c === 'find conversations')).to.deep.equal([
        'find conversations',
        'find visitors',
      ]);
      // The Suggested post's job, for a widget without help center, saved replies or answered conversations: its claim,
      // the conversation, the saved replies, its removal; the help center's index is kept in memory, and read again
      // (its version, articles and synonyms) once older than its freshness, which a loaded machine's run may pass.
      // The visitor's language is read only for a help center in more than one language.
      const suggestion = measured.slice(lineDone);
      expect(suggestion.length, suggestion.join('\n')).to.be.at.most(7);
      expect(suggestion).to.not.include('find visitors');
    } finally {
      for (const socket of sockets) socket.close();
    }
  });
});
