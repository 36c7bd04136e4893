import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Types } from 'mongoose';
import { PermanentJobError } from '../../server/outbox/engine';
import { RELAY_JOB_HANDLERS } from '../../server/relay/jobs';
import { isPublicAddress, postToUrl, UnusableTargetError } from '../../server/relay/publicPost';
import { useRelayServer } from './helpers';

/** Webhooks are URLs account owners type in: in production they may not reach Parley's own network. */
describe('webhooks to private addresses', () => {
  let receiver: http.Server;
  let port = 0;
  const received: string[] = [];

  before(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        received.push(body);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('tells public addresses from loopback, private, link-local, shared and reserved ones', () => {
    const notPublic = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      'not-an-ip',
    ];
    const isPublic = ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'];
    expect(notPublic.filter(isPublicAddress)).to.deep.equal([]);
    expect(isPublic.filter((a) => !isPublicAddress(a))).to.deep.equal([]);
  });

  it('refuses a private address, written as an IP or as a name that resolves to one, and posts when the deployment allows it', async () => {
    const post = (url: string, allowPrivate: boolean) => postToUrl(url, { headers: {}, body: 'ping', timeoutMs: 5000, allowPrivate });
    received.length = 0;
    for (const url of [
      `http://127.0.0.1:${port}/hook`,
      `http://localhost:${port}/hook`,
      `http://[::1]:${port}/hook`,
      'ftp://example.com/',
    ]) {
      const refused = await post(url, false).catch((e: unknown) => e);
      expect(refused, url).to.be.instanceOf(UnusableTargetError);
    }
    expect(received).to.deep.equal([]);
    expect(await post(`http://127.0.0.1:${port}/hook`, true)).to.equal(200);
    expect(received).to.deep.equal(['ping']);
  });

  describe('in a deployment that keeps webhooks public', () => {
    const server = useRelayServer({ webhooksAllowPrivate: false });

    it('gives the webhook job up for good, sending nothing', async () => {
      received.length = 0;
      const job = {
        _id: new Types.ObjectId(),
        kind: 'webhook' as const,
        key: 'webhook:test',
        channel: '',
        payload: { url: `http://127.0.0.1:${port}/hook`, body: { event: 'conversation.started' } },
        attempts: 1,
        runAt: new Date(),
        lockedUntil: null,
        lockedBy: '',
        lastError: '',
        failedAt: null,
        conversationId: null,
        createdAt: new Date(),
        updatedAt: new Date(),
      };
      const callWebhook = RELAY_JOB_HANDLERS.webhook;
      if (typeof callWebhook !== 'function') throw new Error('the webhook job is one call');
      const failure = await callWebhook(server.parley.relay, job).catch((e: unknown) => e);
      expect(failure).to.be.instanceOf(PermanentJobError);
      expect((failure as Error).message).to.include('private or reserved address');
      expect(received).to.deep.equal([]);
    });
  });
});
