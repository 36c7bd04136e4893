import { createServer } from 'node:net';
import { LogLevel, WebClient } from '@slack/web-api';
import { expect } from 'chai';
import { Types } from 'mongoose';
import request from 'supertest';
import type { Message as SlackMessage } from '../../server/sandbox/slack';
import { mayBePosted, type PostJob, postOnce } from '../../server/slack/postOnce';
import { ACME, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

/**
 * Slack took the post but Parley never heard back (the connection broke after the request was sent): the
 * retry must find the post in the thread (by the metadata Parley tags it with) instead of posting it again.
 */
describe('a post whose answer from Slack was lost is in the thread exactly once', () => {
  let widget: SetUp;
  let socket: VisitorSocket;
  let visitorToken = '';
  const server = useRelayServer();
  beforeEach(async () => {
    server.slack.state.clearFaults();
    widget = await setUpRelayWidget(server);
    const hello = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } });
    socket = hello.socket;
    visitorToken = hello.welcome.visitorToken;
  });
  afterEach(() => {
    socket.close();
    server.slack.state.clearFaults();
  });

  const conversation = async () => {
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId });
    if (!c?.threadTs) throw new Error('no Slack thread yet');
    return c;
  };
  /** The visitor's lines in the thread, in Slack's order, once `last` is among them. */
  const visitorLinesUntil = async (last: string): Promise<SlackMessage[]> => {
    let lines: SlackMessage[] = [];
    await eventually(async () => {
      const { threadTs } = await conversation();
      lines = server.slack.state.replies(widget.channel, threadTs).filter((m) => m.username);
      expect(textLines(lines)).to.include(last);
    });
    return lines;
  };
  /** The visitor lines of the thread's posts, in order (lines that waited together go out as one post). */
  const textLines = (posts: SlackMessage[]) => posts.flatMap((m) => m.text.split('\n'));
  const droppedPosts = () => server.slack.state.callsOf('chat.postMessage').filter((c) => c.dropped && c.args.channel === widget.channel);

  it('a visitor message, and the later ones still arrive in order', async () => {
    await say(socket, 'first question');
    await visitorLinesUntil('first question');
    // The new conversation's own work (its Suggested post's job) is done first, so the lost answer is the next line's.
    await eventually(async () =>
      expect(await server.models.OutboxJob.countDocuments({ key: String((await conversation())._id) })).to.equal(0),
    );
    server.slack.state.dropResponses('chat.postMessage', { times: 1 });
    await say(socket, 'the answer to this post is lost');
    await say(socket, 'and this one follows');
    const lines = await visitorLinesUntil('and this one follows');
    expect(droppedPosts(), 'Slack lost the answer to one post').to.have.length(1);
    expect(textLines(lines)).to.deep.equal(['first question', 'the answer to this post is lost', 'and this one follows']);
    const lost = await server.models.Message.findOne({
      conversationId: (await conversation())._id,
      text: 'the answer to this post is lost',
    });
    expect(lost?.slackTs, 'the ts of the post found in the thread is recorded').to.equal(
      lines.find((m) => m.text.split('\n').includes('the answer to this post is lost'))?.ts,
    );
  });

  it('a saved reply sent automatically, and the visitor message that triggered it', async () => {
    await request(server.url)
      .post(`/v1/chat_endpoints/${widget.ceId}/saved_replies`)
      .set('Authorization', `Bearer ${widget.token}`)
      .send({ label: 'Pricing', triggerPhrases: 'price', response: 'Plans start at 29 EUR a month.', autoSend: true })
      .expect(200);
    await say(socket, 'hello');
    await visitorLinesUntil('hello');
    server.slack.state.dropResponses('chat.postMessage', { times: 2 });
    await say(socket, 'what is the price?');
    await socket.next('msg', (f) => f.message.from === 'operator');
    await say(socket, 'thanks');
    await visitorLinesUntil('thanks');
    expect(droppedPosts(), 'Slack lost the answers to both posts').to.have.length(2);
    const { threadTs } = await conversation();
    const thread = server.slack.state.replies(widget.channel, threadTs).map((m) => m.text);
    expect(thread.filter((t) => t === 'what is the price?')).to.have.length(1);
    expect(thread.filter((t) => t.includes('Plans start at 29 EUR a month.'))).to.have.length(1);
    expect(thread.indexOf('what is the price?')).to.be.below(thread.findIndex((t) => t.includes('Plans start at 29')));
  });

  it('the conversation header, posted to the channel, and the first message under it', async () => {
    server.slack.state.dropResponses('chat.postMessage', { times: 1 });
    await say(socket, 'hello, anyone there?');
    await say(socket, 'second line');
    const lines = await visitorLinesUntil('second line');
    expect(
      droppedPosts().map((c) => c.args.thread_ts),
      'the lost answer was the header’s',
    ).to.deep.equal([undefined]);
    const { threadTs } = await conversation();
    const headers = server.slack.state.channelMessages(widget.channel).filter((m) => m.botId);
    expect(
      headers.map((m) => m.ts),
      'one header, and it is the thread Parley uses',
    ).to.deep.equal([threadTs]);
    expect(textLines(lines)).to.deep.equal(['hello, anyone there?', 'second line']);
  });

  it("a visitor's file, when Slack lost the answer to the call that shares it", async () => {
    await say(socket, 'a screenshot follows');
    await visitorLinesUntil('a screenshot follows');
    server.slack.state.dropResponses('files.completeUploadExternal', { times: 1 });
    const bytes = Buffer.from('\x89PNG screenshot of the error');
    await request(server.url)
      .post(`/widget/api/${widget.uuid}/files`)
      .set('X-Visitor-Token', visitorToken)
      .attach('file', bytes, { filename: 'error.png', contentType: 'image/png' })
      .expect(200);
    const stored = async () => server.models.WidgetFile.findOne({ ceId: widget.ceId, name: 'error.png' });
    await eventually(async () => expect((await stored())?.slackFileId).to.match(/^F/));
    const dropped = server.slack.state.callsOf('files.completeUploadExternal').filter((c) => c.dropped);
    expect(dropped, 'Slack lost the answer to the call that shared the file').to.have.length(1);
    const { threadTs } = await conversation();
    const shared = server.slack.state.replies(widget.channel, threadTs).flatMap((m) => m.files ?? []);
    expect(shared, 'the file is in the thread once').to.have.length(1);
    expect((await stored())?.slackFileId).to.equal(String(shared[0]));
    await say(socket, 'and a line after it');
    await visitorLinesUntil('and a line after it');
  });

  it('a retry looks for the post only when the last attempt may have reached Slack', async () => {
    const inst = await server.models.Installation.findOne({ teamId: ACME, revokedAt: null });
    if (!inst) throw new Error('Parley is not installed');
    const clientAt = (apiUrl: string) =>
      new WebClient(inst.botToken, { slackApiUrl: apiUrl, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
    const slack = clientAt(server.slack.apiUrl);
    const nobodyListens = clientAt(`http://127.0.0.1:${await closedPort()}/api/`);
    const newJob = (): PostJob => ({ _id: new Types.ObjectId(), createdAt: new Date(), attempts: 1, lastError: '', payload: {} });
    const retry = (job: PostJob, error: unknown) => {
      job.attempts += 1;
      job.lastError = error instanceof Error ? error.message : String(error);
    };
    const lookUps = () => server.slack.state.callsOf('conversations.history').filter((c) => c.args.channel === widget.channel).length;
    const posts = (text: string) => server.slack.state.channelMessages(widget.channel).filter((m) => m.text === text);

    const refused = newJob();
    const args = { channel: widget.channel, text: 'could not connect' };
    const unsent = await postOnce(server.models, refused, { client: nobodyListens, postId: 'p-refused', args }).catch((e: unknown) => e);
    expect(mayBePosted(refused, 'p-refused'), 'no connection was made: Slack cannot have it').to.equal(false);
    retry(refused, unsent);
    await postOnce(server.models, refused, { client: slack, postId: 'p-refused', args });
    expect(lookUps()).to.equal(0);
    expect(posts('could not connect')).to.have.length(1);

    const lost = newJob();
    server.slack.state.dropResponses('chat.postMessage', { times: 1 });
    const lostArgs = { channel: widget.channel, text: 'answer lost' };
    const lines = { lines: ['m-1', 'm-2'] };
    const hangUp = await postOnce(server.models, lost, { client: slack, postId: 'p-lost', args: lostArgs, payload: lines }).catch(
      (e: unknown) => e,
    );
    expect(mayBePosted(lost, 'p-lost'), 'the connection broke after the request was sent').to.equal(true);
    retry(lost, hangUp);
    const { ts, found } = await postOnce(server.models, lost, {
      client: slack,
      postId: 'p-lost',
      args: lostArgs,
      payload: { lines: ['m-1', 'm-2', 'm-3'] },
    });
    expect(found, 'what the post found holds, not what this attempt would have sent').to.deep.equal({
      id: 'p-lost',
      lines: ['m-1', 'm-2'],
    });
    expect(lookUps()).to.equal(1);
    expect(posts('answer lost').map((m) => m.ts)).to.deep.equal([ts]);

    const timedOut = newJob();
    const impatient = new WebClient(inst.botToken, {
      slackApiUrl: server.slack.apiUrl,
      retryConfig: { retries: 0 },
      timeout: 500,
      logLevel: LogLevel.ERROR,
    });
    server.slack.state.dropResponses('chat.postMessage', { times: 1, mode: 'hang' });
    const slowArgs = { channel: widget.channel, text: 'no answer in time' };
    const timeout = await postOnce(server.models, timedOut, { client: impatient, postId: 'p-slow', args: slowArgs }).catch(
      (e: unknown) => e,
    );
    expect(mayBePosted(timedOut, 'p-slow'), 'the client gave up waiting for the answer').to.equal(true);
    retry(timedOut, timeout);
    const { ts: slowTs } = await postOnce(server.models, timedOut, { client: impatient, postId: 'p-slow', args: slowArgs });
    expect(posts('no answer in time').map((m) => m.ts)).to.deep.equal([slowTs]);
  });

  it('every post Parley makes carries its id in Slack message metadata', async () => {
    await say(socket, 'tagged');
    const [line] = await visitorLinesUntil('tagged');
    const message = await server.models.Message.findOne({ conversationId: (await conversation())._id, text: 'tagged' });
    expect(line?.metadata).to.deep.equal({ event_type: 'parley_post', event_payload: { id: String(message?._id) } });
  });
});

/** A loopback port nothing listens on (taken from the system, then let go). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}
