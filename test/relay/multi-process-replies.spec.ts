/**
 * Operator replies across processes: visitors on A write while their operators answer through B (Slack's events
 * reach B; each reply travels to A through Redis). Every reply reaches its socket once, in the thread's order —
 * also when the visitor's own message, stored after the reply, is acknowledged before the reply's frame arrives,
 * and when Redis is stopped and started in between.
 */
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import type { ServerFrame } from '../../server/shared/widget-protocol';
import {
  FAST_PROCESS_CONFIG,
  type ParleyProcess,
  type RedisProcess,
  type SandboxMessage,
  type Stack,
  setUpWidgetAcross,
  startRedisProcess,
  startStack,
  type WidgetAcross,
} from '../helpers/processes';
import { clientId, eventually, say, VisitorSocket, widgetView } from './helpers';

const VISITORS = 8;
const REPLIES_EACH = 30;

/**
 * A visitor line sent as the widget sends it: one refused with rate_limited (a visitor writing this fast) goes again a
 * little later with the same clientId, until it is acknowledged.
 */
async function write(socket: VisitorSocket, text: string): Promise<void> {
  const id = clientId();
  let answered = 0;
  for (;;) {
    socket.send({ t: 'msg', clientId: id, text });
    let answer: ServerFrame | undefined;
    await eventually(async () => {
      answer = socket.frames.filter((f) => (f.t === 'ack' || f.t === 'error') && f.clientId === id)[answered];
      expect(answer, `an answer to ${id}`).to.not.equal(undefined);
    });
    answered += 1;
    if (answer?.t === 'ack') return;
    if (answer?.t !== 'error' || answer.code !== 'rate_limited') throw new Error(`${id} refused: ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

describe('Operator replies across processes', function () {
  this.timeout(240_000);
  let stack: Stack;
  let a: ParleyProcess;
  let widget: WidgetAcross;
  let restarted: RedisProcess | undefined;
  type Visitor = { name: string; socket: VisitorSocket; threadTs: string; expected: string[] };
  const visitors: Visitor[] = [];

  before(async () => {
    stack = await startStack({ parleys: 2, redis: true, slackTo: 1, config: FAST_PROCESS_CONFIG });
    [a] = stack.parleys;
    widget = await setUpWidgetAcross(stack);
    for (let i = 0; i < VISITORS; i++) {
      const name = `visitor ${i}`;
      const { socket } = await VisitorSocket.hello(a, widget.uuid, { identity: { name } });
      await say(socket, `first line of ${name}`);
      visitors.push({ name, socket, threadTs: '', expected: [] });
    }
    for (const v of visitors) v.threadTs = (await threadParent(stack, widget.channel, `first line of ${v.name}`)).ts;
  });
  after(async () => {
    for (const v of visitors) v.socket.close();
    await stack?.close();
    await restarted?.stop();
  });

  /** The operator replies this visitor's widget shows, in its order; and how many times each reply's frame came. */
  const shown = (v: Visitor) =>
    widgetView(v.socket.frames)
      .filter((line) => line.from === 'operator')
      .map((line) => line.text);
  const doubled = (v: Visitor) => {
    const ids = v.socket.frames.flatMap((f: ServerFrame) => (f.t === 'msg' && f.message.from === 'operator' ? [f.message.id] : []));
    return ids.filter((id, i) => ids.indexOf(id) !== i);
  };

  it('hundreds of replies through B to visitors on A while they write: each reaches its socket once, in order', async () => {
    const writing = visitors.map(async (v) => {
      for (let i = 0; i < REPLIES_EACH / 3; i++) await write(v.socket, `${v.name} writes ${i}`);
    });
    const answering = visitors.map(async (v) => {
      for (let i = 0; i < REPLIES_EACH; i++) {
        const text = `reply ${i} to ${v.name}`;
        await stack.slack.post({ channel: widget.channel, threadTs: v.threadTs, text });
        v.expected.push(text);
      }
    });
    await Promise.all([...writing, ...answering]);
    for (const v of visitors) {
      await eventually(async () => expect(shown(v)).to.deep.equal(v.expected, v.name), 60_000);
      expect(doubled(v)).to.deep.equal([], `${v.name}: no reply twice`);
    }
  });

  it('replies stored while Redis is stopped reach their sockets once it is back', async () => {
    const redis = stack.redis;
    if (!redis) throw new Error('no Redis');
    redis.kill('SIGKILL');
    await redis.exited;
    for (const v of visitors) {
      for (let i = 0; i < 3; i++) {
        const text = `reply ${i} to ${v.name} while Redis is away`;
        await stack.slack.post({ channel: widget.channel, threadTs: v.threadTs, text });
        v.expected.push(text);
      }
    }
    // B has stored them all before Redis is back (nothing of them could reach A through Redis).
    const db = await MongoClient.connect(stack.mongo.uri);
    try {
      const stored = () =>
        db
          .db(stack.dbName)
          .collection('messages')
          .countDocuments({ text: /while Redis is away/ });
      await eventually(async () => expect(await stored()).to.equal(VISITORS * 3), 60_000);
    } finally {
      await db.close();
    }
    restarted = await startRedisProcess({ port: redis.port });
    for (const v of visitors) {
      await eventually(async () => expect(shown(v)).to.deep.equal(v.expected, v.name), 60_000);
      expect(doubled(v)).to.deep.equal([], `${v.name}: no reply twice`);
    }
  });
});

/** The thread Parley opened in `channel` for the conversation that began with `firstLine` (its header quotes it). */
async function threadParent(stack: Stack, channel: string, firstLine: string): Promise<SandboxMessage> {
  let parent: SandboxMessage | undefined;
  await eventually(async () => {
    parent = (await stack.slack.channelMessages(channel)).find(
      (m) => m.isBot && m.text.startsWith('Conversation #') && JSON.stringify(m.blocks ?? []).includes(firstLine),
    );
    expect(parent, 'the conversation thread in Slack').to.not.equal(undefined);
  }, 60_000);
  if (!parent) throw new Error('no thread');
  return parent;
}
