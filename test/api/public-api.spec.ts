import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { expect } from 'chai';
import request from 'supertest';
import { endConversation } from '../../server/commands/endConversation';
import { sendOfflineMessage } from '../../server/commands/sendOfflineMessage';
import { notifyUnanswered } from '../../server/relay';
import { createUserInDb } from '../factories';
import { eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';

/** A local receiver of webhooks: keeps each call's headers and raw body. */
async function receiver() {
  const calls: { headers: IncomingHttpHeaders; raw: string; body: { event: string } & Record<string, unknown> }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      calls.push({ headers: req.headers, raw, body: JSON.parse(raw) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  return { url, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const RATE_LIMIT = 40;

describe('API keys and the public API (/v1/api) with REST hooks', () => {
  let widget: SetUp;
  const server = useRelayServer({ apiKeyRequestsPerMinute: RATE_LIMIT });
  before(async () => {
    widget = await setUpRelayWidget(server);
  });

  const generate = async (token: string, key?: 'apiKey' | 'zapierApiKey') => {
    const res = await request(server.url)
      .put('/v1/accounts/generate-api-key')
      .set('Authorization', `Bearer ${token}`)
      .send(key ? { key } : undefined)
      .expect(200);
    return res.body.account[key ?? 'apiKey'] as string;
  };
  const api = (path: string, key?: string) => {
    const req = request(server.url).get(`/v1/api${path}`);
    return key === undefined ? req : req.set('Authorization', `Bearer ${key}`);
  };
  const chat = async (identity: { name: string; email: string }, text: string) => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity });
    await say(socket, text);
    return socket;
  };

  describe('PUT /accounts/generate-api-key', () => {
    it('shows a new key in full once, then only its first characters', async () => {
      const key = await generate(widget.token);
      expect(key).to.match(/^pk_[A-Za-z0-9_-]{40}$/);
      const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${widget.token}`).expect(200);
      expect(me.body.account.apiKey).to.equal(`${key.slice(0, 8)}…`);
      const stored = await server.models.ApiKey.findOne({ kind: 'api', prefix: key.slice(0, 8) }).lean();
      expect(JSON.stringify(stored)).to.not.include(key);
    });

    it('generates the Zapier key when the body says so', async () => {
      expect(await generate(widget.token, 'zapierApiKey')).to.match(/^zk_/);
    });

    it('answers 400 for an unknown key name, 403 to non-admins and without a session', async () => {
      await request(server.url)
        .put('/v1/accounts/generate-api-key')
        .set('Authorization', `Bearer ${widget.token}`)
        .send({ key: 'other' })
        .expect(400);
      const admin = await createUserInDb(server);
      const mate = await createUserInDb(server, { account: admin.account, admin: false });
      const res = await request(server.url)
        .put('/v1/accounts/generate-api-key')
        .set('Authorization', `Bearer ${mate.token}`)
        .send({})
        .expect(403);
      expect(res.body.Error).to.equal('admin_required');
      await request(server.url).put('/v1/accounts/generate-api-key').expect(403);
    });
  });

  describe('reading with the API key', () => {
    it('answers 401 with no key, a wrong key and a revoked key; 200 with the live one and with the Zapier key', async () => {
      const old = await generate(widget.token);
      expect((await api('/conversations').expect(401)).body.Error).to.equal('invalid_api_key');
      await api('/conversations', 'pk_wrongwrongwrongwrongwrongwrongwrongwrong12').expect(401);
      await api('/conversations', await generate(widget.token, 'zapierApiKey')).expect(200);
      await api('/conversations', old).expect(200);
      const fresh = await generate(widget.token);
      await api('/conversations', old).expect(401);
      await api('/conversations', fresh).expect(200);
    });

    it('lists conversations newest first with their visitor, and one conversation with its messages', async () => {
      const key = await generate(widget.token);
      const socket = await chat({ name: 'Erin', email: 'erin@example.org' }, 'Do you ship to Lyon?');
      const list = (await api('/conversations?email=ERIN@example.org', key).expect(200)).body;
      expect(list.nextCursor).to.equal(null);
      expect(list.data).to.have.length(1);
      expect(list.data[0]).to.deep.include({
        widgetId: widget.uuid,
        status: 'open',
        visitor: { id: list.data[0].visitor.id, name: 'Erin', email: 'erin@example.org' },
      });
      // Tags come as they are stored; a conversation nobody tagged has none.
      expect(list.data[0].tags).to.deep.equal([]);
      await server.models.Conversation.updateOne({ _id: list.data[0].id }, { $set: { tags: ['shipping', 'france'] } });
      const one = (await api(`/conversations/${list.data[0].id as string}`, key).expect(200)).body;
      expect(one.tags).to.deep.equal(['shipping', 'france']);
      expect(one.messages.map((m: { text: string }) => m.text)).to.deep.equal(['Do you ship to Lyon?']);
      const visitors = (await api('/visitors?email=erin@example.org', key).expect(200)).body;
      expect(visitors.data.map((v: { name: string }) => v.name)).to.deep.equal(['Erin']);
      expect((await api(`/visitors/${list.data[0].visitor.id as string}`, key).expect(200)).body.email).to.equal('erin@example.org');
      socket.close();
    });

    it('pages with a cursor through every conversation once, and filters by status and widget', async () => {
      const owner = await createUserInDb(server);
      const key = await generate(owner.token);
      const ce = await server.models.ChatEndpoint.findOne({ accountId: owner.account._id });
      const visitor = await server.models.Visitor.create({ accountId: owner.account._id, ceId: ce?._id, tokenHash: `t-${Date.now()}` });
      for (let n = 1; n <= 5; n++) {
        await server.models.Conversation.create({
          accountId: owner.account._id,
          ceId: ce?._id,
          number: n,
          visitorId: visitor._id,
          status: n === 5 ? 'ended' : 'open',
        });
      }
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: { number: number }[]; nextCursor: string | null } = (
          await api(`/conversations?limit=2${cursor ? `&cursor=${cursor}` : ''}`, key).expect(200)
        ).body;
        seen.push(...page.data.map((c) => c.number));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).to.deep.equal([5, 4, 3, 2, 1]);
      expect((await api('/conversations?status=ended', key).expect(200)).body.data.map((c: { number: number }) => c.number)).to.deep.equal([
        5,
      ]);
      expect((await api(`/conversations?widgetId=${ce?.Uuid ?? ''}`, key).expect(200)).body.data).to.have.length(5);
      expect((await api('/conversations?widgetId=someone-elses', key).expect(200)).body.data).to.have.length(0);
      expect((await api('/conversations?since=2999-01-01T00:00:00Z', key).expect(200)).body.data).to.have.length(0);
    });

    it('answers 400 with a Message for bad filters', async () => {
      const key = await generate(widget.token);
      for (const query of ['limit=0', 'limit=abc', 'status=lost', 'since=yesterday', 'cursor=zz', 'colour=red', 'limit=1&limit=2']) {
        const res = await api(`/conversations?${query}`, key).expect(400);
        expect(res.body.Message, query).to.be.a('string').and.not.equal('');
      }
    });

    it("answers 404 for another account's conversation and visitor", async () => {
      const key = await generate(widget.token);
      const other = await createUserInDb(server);
      const ce = await server.models.ChatEndpoint.findOne({ accountId: other.account._id });
      const visitor = await server.models.Visitor.create({ accountId: other.account._id, ceId: ce?._id, tokenHash: `o-${Date.now()}` });
      const conversation = await server.models.Conversation.create({
        accountId: other.account._id,
        ceId: ce?._id,
        number: 1,
        visitorId: visitor._id,
      });
      await api(`/conversations/${conversation.id as string}`, key).expect(404);
      await api(`/visitors/${visitor.id as string}`, key).expect(404);
      await api('/conversations/not-an-id', key).expect(400);
    });

    it('limits each key per minute (429) without touching other keys', async () => {
      const owner = await createUserInDb(server);
      const key = await generate(owner.token);
      const statuses: number[] = [];
      for (let i = 0; i <= RATE_LIMIT; i++) statuses.push((await api('/me', key)).status);
      expect(statuses.slice(0, RATE_LIMIT).every((s) => s === 200)).to.equal(true);
      expect(statuses[RATE_LIMIT]).to.equal(429);
      await api('/me', await generate(widget.token)).expect(200);
    });
  });

  describe('REST hooks with the Zapier key', () => {
    it('delivers the widget webhooks’ payloads, signed, for every event, and stops after unsubscribing', async () => {
      const zapier = await receiver();
      const own = await receiver();
      try {
        const zkey = await generate(widget.token, 'zapierApiKey');
        await request(server.url)
          .post('/v1/api/hooks')
          .set('Authorization', `Bearer ${await generate(widget.token)}`)
          .send({ event: 'offline_message', targetUrl: zapier.url })
          .expect(401);
        const hooks: Record<string, { id: string; secret: string }> = {};
        for (const event of [
          'conversation.started',
          'conversation.archived',
          'offline_message',
          'conversation.rated',
          'conversation.unanswered',
        ]) {
          const res = await request(server.url)
            .post('/v1/api/hooks')
            .set('Authorization', `Bearer ${zkey}`)
            .send({ event, targetUrl: zapier.url })
            .expect(201);
          expect(res.body.secret).to.match(/^whsec_/);
          hooks[event] = res.body;
        }
        await request(server.url)
          .post('/v1/api/hooks')
          .set('Authorization', `Bearer ${zkey}`)
          .send({ event: 'nope', targetUrl: zapier.url })
          .expect(400);
        await request(server.url)
          .post('/v1/api/hooks')
          .set('Authorization', `Bearer ${zkey}`)
          .send({ event: 'offline_message', targetUrl: 'ftp://x' })
          .expect(400);
        expect((await request(server.url).get('/v1/api/hooks').set('Authorization', `Bearer ${zkey}`).expect(200)).body).to.have.length(5);
        await server.models.ChatEndpoint.updateOne(
          { _id: widget.ceId },
          {
            $set: {
              newConversationWebhookURL: own.url,
              webhookOnArchive: true,
              webhookUrl: own.url,
              feedbackWebhookUrl: own.url,
              offlineMessageWebhookURL: own.url,
              noAnswerWebhookUrl: own.url,
            },
          },
        );

        server.parley.relay.widgets.invalidate(widget.ceId);
        // Earlier tests' chats of this account are still open: only this one may go unanswered.
        await server.models.Conversation.updateMany({ accountId: (await widget.widget()).accountId }, { $set: { status: 'ended' } });
        const socket = await chat({ name: 'Hook', email: 'hook@example.org' }, 'Zap me');
        const conversation = await server.models.Conversation.findOne({ accountId: (await widget.widget()).accountId }).sort({ _id: -1 });
        if (!conversation) throw new Error('no conversation');
        // Assigned and tagged in Slack before anyone answered: every webhook after the start carries it.
        await server.models.Conversation.updateOne(
          { _id: conversation._id },
          { $set: { assigneeId: 'U0ALICE001', tags: ['billing', 'refund'] } },
        );
        await notifyUnanswered(server.parley.relay, new Date(Date.now() + 10 * 60_000));
        await endConversation(server.parley.relay, conversation._id, 'operator');
        socket.send({ t: 'rate', rating: 'up', feedback: 'Great' });
        await sendOfflineMessage(
          server.parley.relay,
          await widget.widget(),
          { email: 'later@example.org', message: 'Call me back' },
          { country: '' },
        );

        await eventually(async () =>
          expect(zapier.calls.map((c) => c.body.event).sort()).to.deep.equal([
            'conversation.archived',
            'conversation.rated',
            'conversation.started',
            'conversation.unanswered',
            'offline_message',
          ]),
        );
        await eventually(async () =>
          expect(own.calls.map((c) => c.body.event).sort()).to.deep.equal(zapier.calls.map((c) => c.body.event).sort()),
        );
        for (const call of zapier.calls) {
          const hook = hooks[call.body.event];
          if (!hook) throw new Error(`unexpected ${call.body.event}`);
          const [t, v1] = String(call.headers['x-parley-signature']).split(',');
          const timestamp = t?.replace('t=', '') ?? '';
          expect(v1).to.equal(`v1=${createHmac('sha256', hook.secret).update(`${timestamp}.${call.raw}`).digest('hex')}`);
          expect(call.headers['x-parley-event']).to.equal(call.body.event);
          const same = own.calls.find((c) => c.body.event === call.body.event);
          expect(call.body, call.body.event).to.deep.equal(same?.body);
          expect(own.calls.find((c) => c.body.event === call.body.event)?.headers['x-parley-signature']).to.equal(undefined);
        }
        // The shared inbox's fields, as the API names them: at the start nobody has it; then it is assigned and tagged.
        const sent = (event: string) => own.calls.find((c) => c.body.event === event)?.body.conversation;
        const inbox = { assigneeId: 'U0ALICE001', tags: ['billing', 'refund'] };
        expect(sent('conversation.started')).to.deep.include({ state: 'open', assigneeId: '', tags: [] });
        expect(sent('conversation.unanswered')).to.deep.include({ state: 'open', ...inbox });
        expect(sent('conversation.archived')).to.deep.include({ state: 'ended', ...inbox });
        expect(sent('conversation.rated')).to.deep.include({ state: 'ended', rating: 'up', ...inbox });
        const api = await request(server.url)
          .get(`/v1/api/conversations/${String(conversation._id)}`)
          .set('Authorization', `Bearer ${await generate(widget.token)}`)
          .expect(200);
        expect(api.body).to.deep.include({ state: 'ended', ...inbox });
        socket.close();

        await request(server.url)
          .delete(`/v1/api/hooks/${hooks['conversation.started']?.id ?? ''}`)
          .set('Authorization', `Bearer ${zkey}`)
          .expect(204);
        const next = await chat({ name: 'After', email: 'after@example.org' }, 'Still there?');
        await eventually(async () => expect(own.calls.filter((c) => c.body.event === 'conversation.started')).to.have.length(2));
        await eventually(async () => expect(await server.models.OutboxJob.countDocuments({ kind: 'webhook' })).to.equal(0));
        expect(zapier.calls.filter((c) => c.body.event === 'conversation.started')).to.have.length(1);
        next.close();

        await generate(widget.token, 'zapierApiKey');
        expect(await server.models.RestHook.countDocuments({ accountId: (await widget.widget()).accountId })).to.equal(0);
        await request(server.url).get('/v1/api/hooks').set('Authorization', `Bearer ${zkey}`).expect(401);
      } finally {
        await zapier.close();
        await own.close();
        await server.models.ChatEndpoint.updateOne(
          { _id: widget.ceId },
          {
            $set: {
              newConversationWebhookURL: '',
              webhookOnArchive: false,
              webhookUrl: '',
              feedbackWebhookUrl: '',
              offlineMessageWebhookURL: '',
              noAnswerWebhookUrl: '',
            },
          },
        );
      }
    });

    it('delivers each visitor message to visitor_message hooks, in order, and nothing to the widget URLs', async () => {
      const zapier = await receiver();
      try {
        const zkey = await generate(widget.token, 'zapierApiKey');
        const hook = (
          await request(server.url)
            .post('/v1/api/hooks')
            .set('Authorization', `Bearer ${zkey}`)
            .send({ event: 'visitor_message', targetUrl: zapier.url })
            .expect(201)
        ).body;
        const socket = await chat({ name: 'Vi', email: 'vi@example.org' }, 'First line');
        await say(socket, 'Second line');
        await eventually(async () =>
          expect(zapier.calls.map((c) => (c.body.message as { text: string }).text)).to.deep.equal(['First line', 'Second line']),
        );
        const [call] = zapier.calls;
        const conversation = await server.models.Conversation.findOne({ accountId: (await widget.widget()).accountId }).sort({ _id: -1 });
        expect(call?.body).to.deep.include({
          event: 'visitor_message',
          conversation: { id: String(conversation?._id), number: conversation?.number, widgetId: widget.uuid },
          visitor: { id: String(conversation?.visitorId) },
        });
        expect(call?.body.message).to.include({ seq: 1, text: 'First line' });
        expect(call?.headers['x-parley-event']).to.equal('visitor_message');
        const [t, v1] = String(call?.headers['x-parley-signature']).split(',');
        const timestamp = t?.replace('t=', '') ?? '';
        expect(v1).to.equal(`v1=${createHmac('sha256', hook.secret).update(`${timestamp}.${call?.raw}`).digest('hex')}`);
        socket.close();
      } finally {
        await zapier.close();
      }
    });

    it("answers 404 when unsubscribing another account's hook", async () => {
      const other = await createUserInDb(server);
      const otherKey = await generate(other.token, 'zapierApiKey');
      const hook = await request(server.url)
        .post('/v1/api/hooks')
        .set('Authorization', `Bearer ${otherKey}`)
        .send({ event: 'offline_message', targetUrl: 'https://hooks.example.com/x' })
        .expect(201);
      const mine = await generate(widget.token, 'zapierApiKey');
      await request(server.url)
        .delete(`/v1/api/hooks/${hook.body.id as string}`)
        .set('Authorization', `Bearer ${mine}`)
        .expect(404);
      expect(await server.models.RestHook.countDocuments({ _id: hook.body.id })).to.equal(1);
    });
  });
});
