/**
 * The Redis parts on their own, against a real redis-server: two "processes" (two sets of connections, as two
 * Parley processes would hold) exchange frames and signals, share rate-limit counts, and keep serving alone
 * while Redis is away.
 */
import { expect } from 'chai';
import type { Logger } from '../../server/logger';
import { createRateLimiters } from '../../server/rateLimits';
import { closeRedis, connectRedis, type Redis } from '../../server/redis';
import { type PubSub, redisPubSub, type Signal } from '../../server/relay/pubsub';
import type { ServerFrame } from '../../server/shared/widget-protocol';
import { quietLogger } from '../helpers/logs';
import { type RedisProcess, startRedisProcess } from '../helpers/processes';
import { eventually } from '../slack/helpers';

const quiet: Logger = quietLogger();
const presence = (online: boolean): ServerFrame => ({ t: 'presence', online });

describe('Redis between processes', () => {
  let redis: RedisProcess;
  const connections: Redis[] = [];
  const pubsubs: PubSub[] = [];

  const connect = () => {
    const connection = connectRedis(redis.url, quiet);
    connections.push(connection);
    return connection;
  };
  /** A process's pub/sub, once connected (a process starts serving once Redis answers, or gives up waiting). */
  const processPubSub = async () => {
    const connection = connect();
    const pubsub = redisPubSub(connection, quiet);
    pubsubs.push(pubsub);
    await pubsub.ready();
    await eventually(async () => expect(connection.status).to.equal('ready'));
    return pubsub;
  };

  before(async () => {
    redis = await startRedisProcess();
  });
  after(async () => {
    for (const p of pubsubs) await p.close();
    for (const c of connections) await closeRedis(c);
    await redis.stop();
  });

  it('hands a frame published in one process to the listeners of that topic in every process, once each', async () => {
    const [a, b] = await Promise.all([processPubSub(), processPubSub()]);
    const gotA: ServerFrame[] = [];
    const gotB: { frame: ServerFrame; except?: string }[] = [];
    a.subscribe('widget:w1', (frame) => gotA.push(frame));
    b.subscribe('widget:w1', (frame, meta) => gotB.push({ frame, except: meta.except }));
    b.subscribe('widget:other', () => expect.fail('a frame of another topic arrived'));
    await Promise.all([a.ready(), b.ready()]);

    a.publish('widget:w1', presence(true), { except: 'socket-1' });
    expect(gotA).to.deep.equal([presence(true)], 'the publishing process delivers at once, not through Redis');
    await eventually(async () => expect(gotB).to.deep.equal([{ frame: presence(true), except: 'socket-1' }]));
    b.publish('widget:w1', presence(false));
    await eventually(async () => expect(gotA).to.deep.equal([presence(true), presence(false)]));
    expect(gotB).to.have.length(2);
  });

  it('stops sending a process the frames of a topic once its last listener left', async () => {
    const [a, b] = await Promise.all([processPubSub(), processPubSub()]);
    const got: ServerFrame[] = [];
    const first = b.subscribe('visitor:v1', (frame) => got.push(frame));
    const second = b.subscribe('visitor:v1', (frame) => got.push(frame));
    await b.ready();
    first();
    a.publish('visitor:v1', presence(true));
    await eventually(async () => expect(got).to.have.length(1));
    second();
    await eventually(async () => {
      const channels = (await connections[0].call('PUBSUB', 'CHANNELS', 'parley:topic:visitor:v1')) as string[];
      expect(channels).to.deep.equal([]);
    });
  });

  it('tells the other processes of a signal, not the one that sent it', async () => {
    const [a, b] = await Promise.all([processPubSub(), processPubSub()]);
    const gotA: Signal[] = [];
    const gotB: Signal[] = [];
    a.onSignal((s) => gotA.push(s));
    b.onSignal((s) => gotB.push(s));
    await eventually(async () => {
      a.signal({ kind: 'widget', ceId: 'ce1' });
      expect(gotB).to.deep.include({ kind: 'widget', ceId: 'ce1' });
    });
    expect(gotA).to.deep.equal([]);
  });

  it('counts a limit over every process', async () => {
    const [one, two] = [createRateLimiters({ redis: connect(), logger: quiet }), createRateLimiters({ redis: connect(), logger: quiet })];
    const a = one.counter('spec-sockets', 60_000);
    const b = two.counter('spec-sockets', 60_000);
    await eventually(async () => expect(connections.at(-1)?.status).to.equal('ready'));
    expect(await a.hit('10.0.0.1')).to.equal(1);
    expect(await b.hit('10.0.0.1')).to.equal(2);
    expect(await a.hit('10.0.0.1')).to.equal(3);
    expect(await b.hit('10.0.0.2')).to.equal(1);
  });

  it('keeps serving its own sockets and counting alone while Redis is away, and shares again once it is back', async function () {
    this.timeout(60_000);
    const [a, b] = await Promise.all([processPubSub(), processPubSub()]);
    const limiterConnection = connect();
    const limiter = createRateLimiters({ redis: limiterConnection, logger: quiet }).counter('spec-outage', 60_000);
    const gotA: ServerFrame[] = [];
    const gotB: ServerFrame[] = [];
    a.subscribe('conversation:c1', (frame) => gotA.push(frame));
    await eventually(async () => expect(limiterConnection.status).to.equal('ready'));
    expect(await limiter.hit('10.0.0.9')).to.equal(1);

    const port = redis.port;
    redis.kill('SIGKILL');
    await redis.exited;
    await eventually(async () => expect(limiterConnection.status).to.not.equal('ready'));
    a.publish('conversation:c1', presence(true));
    expect(gotA).to.deep.equal([presence(true)]);
    // A socket that arrives while Redis is away subscribes all the same.
    b.subscribe('conversation:c1', (frame) => gotB.push(frame));
    await b.ready();
    expect(await limiter.hit('10.0.0.9')).to.equal(1, 'counted in the process while Redis is away');

    redis = await startRedisProcess({ port });
    await eventually(async () => {
      a.publish('conversation:c1', presence(false));
      expect(gotB).to.deep.include(presence(false));
    });
    // Each connection comes back on its own retry schedule (up to 2 s apart): the limiter counts in the process until
    // its own is ready again.
    await eventually(async () => expect(limiterConnection.status).to.equal('ready'));
    expect(await limiter.hit('10.0.0.9')).to.equal(1, 'a new Redis starts counting from nothing');
  });
});
