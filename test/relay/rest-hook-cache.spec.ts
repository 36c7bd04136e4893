/**
 * An account's REST hooks are kept in memory for a moment (conversations/webhooks.ts) so a visitor's line costs no
 * read for them: a subscription through the API is seen by the very next event all the same.
 */
import { expect } from 'chai';
import request from 'supertest';
import { eventually, say, setUpRelayWidget, useRelayServer, VisitorSocket, webhookTarget } from './helpers';

describe('REST hooks kept in memory', () => {
  const server = useRelayServer();

  it('a hook subscribed right after a visitor line (its event just looked up) receives the very next line', async () => {
    const widget = await setUpRelayWidget(server);
    const key = await request(server.url)
      .put('/v1/accounts/generate-api-key')
      .set('Authorization', `Bearer ${widget.token}`)
      .send({ key: 'zapierApiKey' })
      .expect(200);
    const zkey = String(key.body.account.zapierApiKey);
    const target = await webhookTarget();
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } });
    try {
      await say(socket, 'Before any hook');
      // The line's REST hooks were looked up (none) after its ack; the subscription comes at once after.
      await eventually(async () => expect(await server.models.OutboxJob.countDocuments({ kind: 'slack.reply' })).to.equal(0));
      await request(server.url)
        .post('/v1/api/hooks')
        .set('Authorization', `Bearer ${zkey}`)
        .send({ event: 'visitor_message', targetUrl: target.url })
        .expect(201);
      await say(socket, 'After the subscription');
      await eventually(async () =>
        expect(target.bodies.map((b) => (b as { message: { text: string } }).message.text)).to.deep.equal(['After the subscription']),
      );
    } finally {
      socket.close();
      await target.close();
    }
  });
});
