import { expect } from 'chai';
import request from 'supertest';
import { WIDGET_LIMITS } from '../../server/shared/widget-protocol';
import {
  clientId,
  eventually,
  PAGE,
  type SetUp,
  say,
  setUpRelayWidget,
  useRelayServer,
  VisitorSocket,
  webhookTarget,
} from '../relay/helpers';

describe('public widget API and visitor rules', () => {
  let widget: SetUp;
  const server = useRelayServer({ trustProxy: true, relay: { framesPer10s: 40, visitorMsgsPerMinute: 6 } });
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
  });

  const configure = async (settings: Record<string, unknown>) => {
    await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: settings });
  };

  describe('GET /widget/api/{uuid}/config', () => {
    it('answers what a visitor may see, readable from any site, and nothing secret', async () => {
      await configure({ webhookUrl: 'https://hooks.example.com/secret', transcriptRecipient: 'boss@example.com', onlineTitle: 'Hi there' });
      const res = await request(server.url).get(`/widget/api/${widget.uuid}/config`).set('Origin', 'https://shop.example.com').expect(200);
      expect(res.headers['access-control-allow-origin']).to.equal('*');
      // Revalidated each page load, so turning the widget off shows at once.
      expect(res.headers['cache-control']).to.equal('no-cache');
      expect(res.body).to.include({ widgetId: widget.uuid, allowed: true, online: true, hideWhenOffline: false });
      expect(res.body.wsUrl).to.match(/^ws:\/\/.*\/ws$/);
      expect(res.body.settings.onlineTitle).to.equal('Hi there');
      const text = JSON.stringify(res.body);
      for (const secret of ['hooks.example.com', 'boss@example.com', widget.channel, 'T0ACME0001', 'xoxb-'])
        expect(text).to.not.include(secret);
    });

    it('answers 404 with a Message for an unknown widget', async () => {
      const res = await request(server.url).get('/widget/api/not-a-widget/config').expect(404);
      expect(res.body).to.deep.equal({ Message: 'This chat widget does not exist.', Error: 'unknown_widget' });
    });
  });

  describe('POST /widget/api/{uuid}/offline', () => {
    it('sends the message to the owner by e-mail, to the Slack channel and to the offline webhook', async () => {
      const hook = await webhookTarget();
      try {
        await configure({ offlineMessageWebhookURL: hook.url });
        const owner = await server.models.User.findOne({ accountId: (await widget.widget()).accountId });
        await request(server.url)
          .post(`/widget/api/${widget.uuid}/offline`)
          .set('Origin', 'https://shop.example.com')
          .send({ name: 'Nora', email: 'nora@example.com', message: 'Call me back <!channel>', page: PAGE })
          .expect(200, { ok: true });
        await eventually(async () => {
          const mail = await server.outbox.latestTo(owner?.email ?? '');
          expect(mail?.text).to.include('Call me back').and.include('nora@example.com');
          // Replying to the mail reaches the visitor, not the no-reply sender.
          expect(mail?.replyTo).to.deep.equal({ name: 'Nora', address: 'nora@example.com' });
        });
        await eventually(async () => {
          const post = server.slack.state.channelMessages(widget.channel).find((m) => m.text.includes('Offline message'));
          expect(post?.text).to.include('nora@example.com').and.include('&lt;!channel&gt;');
        });
        await eventually(async () => expect(hook.bodies).to.have.length(1));
        expect(hook.bodies[0]).to.include({
          event: 'offline_message',
          email: 'nora@example.com',
          message: 'Call me back <!channel>',
          widgetId: widget.uuid,
        });
        expect(await server.models.OfflineMessage.countDocuments({ ceId: widget.ceId })).to.equal(1);
      } finally {
        await hook.close();
      }
    });

    it('retries the webhook until it accepts', async () => {
      const hook = await webhookTarget();
      hook.status = 503;
      try {
        await configure({ offlineMessageWebhookURL: hook.url, sendOfflineMessagesToEmail: false, sendOfflineMessagesToSlack: false });
        await request(server.url).post(`/widget/api/${widget.uuid}/offline`).send({ email: 'a@example.com', message: 'hello' }).expect(200);
        await eventually(async () => expect((await server.models.OutboxJob.findOne({ kind: 'webhook' }))?.attempts).to.be.greaterThan(1));
        hook.status = 200;
        await eventually(async () => expect(hook.bodies).to.have.length(1));
      } finally {
        await hook.close();
      }
    });

    it('answers 400 with a Message for a bad e-mail or an empty message, and 404 for an unknown widget', async () => {
      const bad = await request(server.url).post(`/widget/api/${widget.uuid}/offline`).send({ email: 'nope', message: 'hi' }).expect(400);
      expect(bad.body.Message).to.match(/email/);
      await request(server.url).post(`/widget/api/${widget.uuid}/offline`).send({ email: 'a@example.com', message: '' }).expect(400);
      await request(server.url).post(`/widget/api/${widget.uuid}/offline`).type('json').send('{"email":').expect(400);
      await request(server.url).post('/widget/api/unknown/offline').send({ email: 'a@example.com', message: 'hi' }).expect(404);
      expect(await server.models.OfflineMessage.countDocuments({ ceId: widget.ceId })).to.equal(0);
    });
  });

  describe('widget settings enforced by the server', () => {
    it('asks for the e-mail first when requireInfo is on', async () => {
      await configure({ requireInfo: true });
      const { socket } = await VisitorSocket.hello(server, widget.uuid);
      const id = clientId();
      socket.send({ t: 'msg', clientId: id, text: 'hello' });
      expect(await socket.next('error')).to.include({ code: 'info_required', clientId: id });
      socket.send({ t: 'info', name: 'Ivy', email: 'ivy@example.com' });
      const ack = await say(socket, 'hello', id);
      expect(ack.seq).to.equal(1);
      socket.close();
    });

    it('requires the privacy acceptance when the policy must be accepted', async () => {
      await configure({ displayPrivacyPolicy: true, requireAcceptance: true });
      const { socket } = await VisitorSocket.hello(server, widget.uuid);
      socket.send({ t: 'msg', clientId: clientId(), text: 'hello' });
      expect((await socket.next('error')).code).to.equal('privacy_not_accepted');
      socket.send({ t: 'info', acceptedPrivacy: true });
      await say(socket, 'hello');
      socket.close();
    });

    it('refuses visitors from a denied country by their IP, behind a trusted proxy', async () => {
      await configure({ collectVisitorMetaData: true, countryDenyList: 'US' });
      const denied = await VisitorSocket.open(server, { 'x-forwarded-for': '8.8.8.8' });
      denied.send({ t: 'hello', widgetId: widget.uuid, lastSeq: 0, page: PAGE });
      expect((await denied.next('error')).code).to.equal('not_allowed_here');
      expect(await denied.closed()).to.equal(1008);
      const config = await request(server.url).get(`/widget/api/${widget.uuid}/config`).set('X-Forwarded-For', '8.8.8.8').expect(200);
      expect(config.body.allowed).to.equal(false);
      await request(server.url)
        .post(`/widget/api/${widget.uuid}/offline`)
        .set('X-Forwarded-For', '8.8.8.8')
        .send({ email: 'a@example.com', message: 'hi' })
        .expect(403);
      const { welcome } = await VisitorSocket.hello(server, widget.uuid, { headers: { 'x-forwarded-for': '81.2.69.142' } });
      expect(welcome.online).to.equal(true);
      const visitor = await server.models.Visitor.findOne({ ceId: widget.ceId }).sort({ _id: -1 });
      expect(visitor?.location.country).to.equal('GB');
    });

    it('refuses a new conversation beyond maxConcurrentConvos', async () => {
      await configure({ maxConcurrentConvos: 1 });
      const first = await VisitorSocket.hello(server, widget.uuid);
      await say(first.socket, 'first visitor');
      const second = await VisitorSocket.hello(server, widget.uuid);
      second.socket.send({ t: 'msg', clientId: clientId(), text: 'second visitor' });
      expect((await second.socket.next('error')).code).to.equal('too_many_conversations');
      await say(first.socket, 'the first visitor can go on');
      first.socket.close();
      second.socket.close();
    });

    it('never lets a visitor token of one widget open a conversation of another', async () => {
      const other = await setUpRelayWidget(server);
      const mine = await VisitorSocket.hello(server, widget.uuid);
      await say(mine.socket, 'private question');
      const stranger = await VisitorSocket.hello(server, other.uuid, { visitorToken: mine.welcome.visitorToken, lastSeq: 0 });
      expect(stranger.welcome.conversation).to.equal(null);
      expect(stranger.welcome.visitorToken).to.not.equal(mine.welcome.visitorToken);
      expect(stranger.socket.msgs()).to.have.length(0);
      expect(await server.models.Conversation.countDocuments({ ceId: other.ceId })).to.equal(0);
      mine.socket.close();
      stranger.socket.close();
    });
  });

  describe('limits and bad frames', () => {
    it('tells the sender why and closes on a frame that is not JSON, and stays up', async () => {
      const socket = await VisitorSocket.open(server);
      socket.sendRaw('this is not json');
      expect((await socket.next('error')).code).to.equal('bad_frame');
      expect(await socket.closed()).to.equal(1008);
      const { welcome } = await VisitorSocket.hello(server, widget.uuid);
      expect(welcome.t).to.equal('welcome');
    });

    it('closes with too_large on an oversized frame', async () => {
      const { socket } = await VisitorSocket.hello(server, widget.uuid);
      socket.send({ t: 'msg', clientId: clientId(), text: 'x'.repeat(WIDGET_LIMITS.frameBytes + 10) });
      expect((await socket.next('error')).code).to.equal('too_large');
      expect(await socket.closed()).to.equal(1009);
      const again = await VisitorSocket.hello(server, widget.uuid);
      await say(again.socket, 'a normal message still goes through');
      again.socket.close();
    });

    it('answers a frame that breaks the schema with bad_frame and keeps the socket', async () => {
      const { socket } = await VisitorSocket.hello(server, widget.uuid);
      const id = clientId();
      socket.send({ t: 'msg', clientId: id, text: 'y'.repeat(WIDGET_LIMITS.messageChars + 1) });
      expect(await socket.next('error')).to.include({ code: 'bad_frame', clientId: id });
      socket.send({ t: 'ping' });
      await socket.next('pong');
      socket.send({ t: 'no-such-frame' });
      expect((await socket.next('error')).code).to.equal('bad_frame');
      expect(await socket.closed()).to.equal(1008);
    });

    it('refuses frames before hello', async () => {
      const socket = await VisitorSocket.open(server);
      socket.send({ t: 'msg', clientId: clientId(), text: 'sneaky' });
      expect((await socket.next('error')).code).to.equal('bad_frame');
      expect(await socket.closed()).to.equal(1008);
    });

    it('answers rate_limited when a visitor sends messages too fast', async () => {
      const { socket } = await VisitorSocket.hello(server, widget.uuid);
      const ids = Array.from({ length: 8 }, () => clientId());
      for (const id of ids) socket.send({ t: 'msg', clientId: id, text: `spam ${id}` });
      const limited = await socket.next('error', (e) => e.code === 'rate_limited');
      expect(ids).to.include(limited.clientId);
      socket.close();
    });

    it('refuses sockets from a page of a non-web origin', async () => {
      let status = 0;
      try {
        await VisitorSocket.open(server, { origin: 'null' });
      } catch (error) {
        status = Number(/\d{3}/.exec(String(error))?.[0]);
      }
      expect(status).to.equal(403);
    });
  });
});
