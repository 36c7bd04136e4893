/**
 * Parley as several processes behind a load balancer: two Parley processes (A and B) on one database and one
 * Redis, each its own OS process, with the Slack sandbox in a third sending every event to B. A visitor talks
 * through A while Slack talks to B; A dies (SIGKILL) in the middle of the conversation, holding work; the visitor
 * reconnects to B. Nothing may be lost or doubled, in the widget or in the Slack thread, and limits hold over both.
 */
import { expect } from 'chai';
import request from 'supertest';
import type { ServerFrame } from '../../server/shared/widget-protocol';
import {
  FAST_PROCESS_CONFIG,
  type ParleyProcess,
  type SandboxMessage,
  type Stack,
  setUpWidgetAcross,
  startStack,
  type WidgetAcross,
} from '../helpers/processes';
import { eventually, say, VisitorSocket } from './helpers';

type Msg = Extract<ServerFrame, { t: 'msg' }>['message'];

/** Failed sign-ins allowed per client address over the whole deployment. */
const LOGIN_PER_IP = 6;

describe('Several Parley processes on one database and one Redis', function () {
  this.timeout(90_000);
  let stack: Stack;
  let a: ParleyProcess;
  let b: ParleyProcess;
  let widget: WidgetAcross;

  before(async () => {
    stack = await startStack({
      parleys: 2,
      redis: true,
      // Slack's events, interactions and commands all go to B.
      slackTo: 1,
      config: {
        ...FAST_PROCESS_CONFIG,
        // A dead process's outbox jobs are taken over within a couple of seconds, not a minute.
        // Presence is not recomputed on a timer here: only another process's signal can tell a widget of a change.
        relay: { ...FAST_PROCESS_CONFIG.relay, outboxLeaseMs: 1_500, outboxPollMs: 300, presenceRefreshMs: 3_600_000 },
        rateLimits: { ...FAST_PROCESS_CONFIG.rateLimits, windowMs: 60_000, loginPerIp: LOGIN_PER_IP },
      },
    });
    [a, b] = stack.parleys;
    widget = await setUpWidgetAcross(stack);
  });
  after(async () => {
    await stack?.close();
  });

  it("answers the load balancer's health check with the database and Redis up", async () => {
    for (const process of [a, b]) {
      const res = await request(process.url).get('/health').expect(200);
      expect(res.body).to.deep.equal({ status: 'ok', database: 'up', redis: 'up' });
    }
  });

  it('counts failed sign-ins from one address over both processes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_PER_IP; i++) {
      const res = await request((i % 2 === 0 ? a : b).url)
        .post('/v1/p/sessions')
        .send({ email: widget.email, password: `wrong ${i}` });
      statuses.push(res.status);
    }
    expect(statuses).to.deep.equal(Array(LOGIN_PER_IP).fill(400), 'each process let its share through');
    for (const process of [a, b]) {
      const res = await request(process.url).post('/v1/p/sessions').send({ email: widget.email, password: widget.password });
      expect(res.status).to.equal(429, `${process.name} refuses once the deployment's limit is spent`);
      expect(res.body.Message).to.be.a('string');
    }
  });

  it('tells a widget open on one process of a settings change made through the other', async () => {
    const { socket, welcome } = await VisitorSocket.hello(b, widget.uuid);
    expect(welcome.online).to.equal(true);
    const update = (body: Record<string, unknown>) =>
      request(a.url)
        .put(`/v1/chat_endpoints/${widget.ceId}/update_config`)
        .set('Authorization', `Bearer ${widget.token}`)
        .send(body)
        .expect(200);
    await update({ off: true });
    expect(await socket.next('presence', undefined, 20_000)).to.deep.equal({ t: 'presence', online: false });
    await update({ off: false });
    expect(await socket.next('presence', undefined, 20_000)).to.deep.equal({ t: 'presence', online: true });
    socket.close();
  });

  it('sends automatically a saved reply added through one process to a visitor on the other, which had the old list in memory', async () => {
    const save = (body: Record<string, unknown>) =>
      request(a.url)
        .post(`/v1/chat_endpoints/${widget.ceId}/saved_replies`)
        .set('Authorization', `Bearer ${widget.token}`)
        .send({ autoSend: true, ...body })
        .expect(200);
    await save({ label: 'Welcome', triggerPhrases: 'hello', response: 'Welcome!' });
    const { socket } = await VisitorSocket.hello(b, widget.uuid);
    await say(socket, 'hello');
    await socket.next('msg', (f) => f.message.text === 'Welcome!', 20_000);
    await save({ label: 'Refunds', triggerPhrases: 'refund', response: 'Refunds within 14 days.' });
    // B hears of the change over Redis, within moments of A's answer: a message that found the old list is asked again.
    await eventually(async () => {
      await say(socket, 'a refund?');
      await socket.next('msg', (f) => f.message.text === 'Refunds within 14 days.', 1_000);
    }, 20_000);
    socket.close();
  });

  it('relays both ways across processes, and a visitor whose process died resumes on the other with nothing lost or doubled', async () => {
    const { slack } = stack;
    const first = await VisitorSocket.hello(a, widget.uuid);
    await say(first.socket, 'line one');
    const parent = await threadParent(stack, widget.channel, 'line one');

    // Slack's event reaches B; the reply reaches the visitor's socket on A through Redis.
    await slack.post({ channel: widget.channel, threadTs: parent.ts, text: 'reply one' });
    await first.socket.next('msg', (f) => f.message.text === 'reply one', 20_000);

    // A dies in the middle of a Slack call: Slack made the post but A never heard back, and A holds that job (and the
    // line queued behind it) under its lease. B takes them over once the lease expires, finds the post, and does not
    // make it again.
    await eventually(async () => expect(botReplies(await slack.threadReplies(widget.channel, parent.ts))).to.include('line one'));
    await slack.fault({ fault: 'dropResponses', method: 'chat.postMessage', times: 1, mode: 'hang', holdMs: 30_000 });
    await say(first.socket, 'line two');
    await eventually(async () => expect(botReplies(await slack.threadReplies(widget.channel, parent.ts))).to.include('line two'));
    await say(first.socket, 'line three');
    a.kill('SIGKILL');
    await a.exited;
    await first.socket.closed(10_000);
    await slack.post({ channel: widget.channel, threadTs: parent.ts, text: 'reply two' });

    const lastSeq = Math.max(...first.socket.frames.map(seqOf));
    const second = await VisitorSocket.hello(b, widget.uuid, { visitorToken: first.welcome.visitorToken, lastSeq });
    await second.socket.next('msg', (f) => f.message.text === 'reply two', 20_000);
    await say(second.socket, 'line four');
    await slack.post({ channel: widget.channel, threadTs: parent.ts, text: 'reply three' });
    await second.socket.next('msg', (f) => f.message.text === 'reply three', 20_000);

    // The widget: every message once, in order, across both sockets.
    const seen: Msg[] = [...first.socket.msgs(), ...second.socket.msgs()].map((f) => f.message);
    const operatorTexts = seen.filter((m) => m.from === 'operator').map((m) => m.text);
    expect(operatorTexts).to.deep.equal(['reply one', 'reply two', 'reply three']);
    const seqs = seen.map((m) => m.seq);
    expect(seqs).to.deep.equal(
      [...new Set(seqs)].sort((x, y) => x - y),
      'no frame twice, none out of order',
    );

    // The Slack thread: each visitor line exactly once, the lines A held posted by B after A's lease ran out.
    await eventually(async () => {
      const bot = botReplies(await slack.threadReplies(widget.channel, parent.ts));
      for (const line of ['line one', 'line two', 'line three', 'line four']) {
        expect(occurrences(bot, line), `"${line}" in ${JSON.stringify(bot)}`).to.equal(1);
      }
      const at = (line: string) => bot.findIndex((text) => text.includes(line));
      expect([at('line one'), at('line two'), at('line three'), at('line four')], JSON.stringify(bot)).to.deep.equal(
        [at('line one'), at('line two'), at('line three'), at('line four')].sort((x, y) => x - y),
        'in the order the visitor wrote them',
      );
    }, 40_000);
    // The first line also opened the thread: quoted once in its header.
    expect(occurrences(sectionTexts(parent), 'line one')).to.equal(1);
    first.socket.close();
    second.socket.close();
  });
});

/** The thread Parley opened in `channel` for the conversation that began with `firstLine` (its header quotes it). */
async function threadParent(stack: Stack, channel: string, firstLine: string): Promise<SandboxMessage> {
  let parent: SandboxMessage | undefined;
  await eventually(async () => {
    parent = (await stack.slack.channelMessages(channel)).find(
      (m) => m.isBot && m.text.startsWith('Conversation #') && sectionTexts(m).some((text) => text.includes(firstLine)),
    );
    expect(parent, 'the conversation thread in Slack').to.not.equal(undefined);
  });
  if (!parent) throw new Error('no thread');
  return parent;
}

/** The texts of Parley's posts in a thread. */
function botReplies(replies: SandboxMessage[]): string[] {
  return replies.filter((r) => r.isBot).map((r) => r.text);
}

/** The sequence number a frame carries (an ack's, a message's), 0 for others. */
function seqOf(frame: ServerFrame): number {
  if (frame.t === 'ack') return frame.seq;
  if (frame.t === 'msg') return frame.message.seq;
  return 0;
}

/** The mrkdwn of a message's section blocks, as Slack shows it. */
function sectionTexts(message: SandboxMessage): string[] {
  return (message.blocks ?? []).flatMap((block) => (block.type === 'section' && block.text ? [block.text.text] : []));
}

function occurrences(texts: string[], line: string): number {
  return texts.reduce((n, text) => n + text.split(line).length - 1, 0);
}
