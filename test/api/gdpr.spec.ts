import { expect } from 'chai';
import request from 'supertest';
import type { GdprExportView } from '../../server/shared/team';
import { createUserInDb } from '../factories';
import { unzip } from '../helpers/zip';
import { eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';

const jsonLines = (text: string | undefined) =>
  (text ?? '')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('GDPR export and erasure (/v1/accounts/gdpr-*)', () => {
  let widget: SetUp;
  const server = useRelayServer();
  before(async () => {
    widget = await setUpRelayWidget(server);
  });

  const as = (token: string) => ({
    get: (path: string) => request(server.url).get(`/v1${path}`).set('Authorization', `Bearer ${token}`),
    post: (path: string, body?: object) => request(server.url).post(`/v1${path}`).set('Authorization', `Bearer ${token}`).send(body),
  });
  const chat = async (identity: { name: string; email: string }, text: string) => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity });
    await say(socket, text);
    socket.close();
  };
  const download = async (url: string) => {
    const res = await request(server.url)
      .get(new URL(url).pathname + new URL(url).search)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    return res;
  };

  describe('export', () => {
    it('builds an archive in the background, shows its signed link, mails the admin, and the archive holds the conversation', async () => {
      await chat({ name: 'Gina', email: 'gina@example.org' }, 'Please export me');
      const started = (await as(widget.token).post('/accounts/gdpr-export').expect(202)).body as GdprExportView;
      expect(started).to.include({ status: 'running', url: '' });
      let ready: GdprExportView | null = null;
      await eventually(async () => {
        ready = (await as(widget.token).get('/accounts/gdpr-export').expect(200)).body as GdprExportView;
        expect(ready.status).to.equal('ready');
      });
      const view = ready as unknown as GdprExportView;
      expect(view.done).to.equal(view.total).and.be.greaterThan(3);
      const me = (await as(widget.token).get('/users/current').expect(200)).body;
      expect(me.account.GDPRExportSignedURL).to.equal(view.url);
      expect(view.url.length).to.be.greaterThan(6);
      expect(new Date(view.expiresAt ?? 0).getTime() - Date.now()).to.be.within(23.9 * 3600_000, 24 * 3600_000);
      expect((await server.outbox.latestTo(me.email as string))?.text).to.include(view.url);

      const res = await download(view.url);
      expect(res.status).to.equal(200);
      expect(res.headers['content-disposition']).to.match(/parley-export-.*\.zip/);
      const files = await unzip(res.body as Buffer);
      expect([...files.keys()]).to.include.members([
        'README.txt',
        'account.jsonl',
        'users.jsonl',
        'widgets.jsonl',
        'conversations.jsonl',
        'messages.jsonl',
        'visitors.jsonl',
        'files.jsonl',
      ]);
      for (const [name, text] of files) if (name.endsWith('.jsonl')) jsonLines(text);
      expect(jsonLines(files.get('messages.jsonl')).map((m) => m.text)).to.include('Please export me');
      expect(jsonLines(files.get('visitors.jsonl')).map((v) => v.email)).to.include('gina@example.org');
      const users = jsonLines(files.get('users.jsonl'));
      expect(users.map((u) => u.email)).to.deep.equal([me.email]);
      expect(files.get('users.jsonl')).to.not.include('passwordHash').and.not.include('argon2');
      expect(files.get('visitors.jsonl')).to.not.include('tokenHash');
      expect(jsonLines(files.get('account.jsonl'))[0]?._id).to.equal(me.account.Id);
    });

    it('refuses a tampered or expired link', async () => {
      const view = (await as(widget.token).get('/accounts/gdpr-export').expect(200)).body as GdprExportView;
      const url = new URL(view.url);
      const signature = url.searchParams.get('signature') ?? '';
      url.searchParams.set('signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
      expect(
        (
          await request(server.url)
            .get(url.pathname + url.search)
            .expect(404)
        ).body.Message,
      ).to.match(/expired or is invalid/);
      url.searchParams.set('expires', '1000');
      await request(server.url)
        .get(url.pathname + url.search)
        .expect(404);
      await request(server.url).get(new URL(view.url).pathname).expect(400);
      const malformed = await request(server.url)
        .get(`/v1/p/gdpr-exports/not-an-export${new URL(view.url).search}`)
        .expect(400);
      expect(malformed.body.Message).to.equal('This export link is invalid');
    });

    it('refuses a second export while one is being built', async () => {
      const admin = await createUserInDb(server);
      await server.models.GdprExport.create({ accountId: admin.account._id, requestedBy: admin.user._id, status: 'running' });
      const res = await as(admin.token).post('/accounts/gdpr-export').expect(400);
      expect(res.body).to.deep.equal({ Message: 'An export is already being built', Error: 'conflict' });
    });
  });

  describe('erasure', () => {
    it('erases a visitor by e-mail: messages, identity and files leave Parley, the conversation stays as a count, and it is recorded', async () => {
      await chat({ name: 'Erik', email: 'erik@example.org' }, 'Forget me please');
      const visitor = await server.models.Visitor.findOne({ email: 'erik@example.org' });
      const conversation = await server.models.Conversation.findOne({ visitorId: visitor?._id });
      await server.models.WidgetFile.create({
        ceId: widget.ceId,
        conversationId: conversation?._id,
        visitorId: visitor?._id,
        source: 'visitor',
        name: 'id-card.png',
        size: 3,
        mimetype: 'image/png',
        data: Buffer.from('abc'),
      });
      const erased = (await as(widget.token).post('/accounts/gdpr-erasure', { query: ' Erik@Example.org ' }).expect(201)).body;
      expect(erased).to.include({ by: 'email', visitors: 1, conversations: 1, messages: 1, files: 1 });
      expect(await server.models.Visitor.countDocuments({ email: 'erik@example.org' })).to.equal(0);
      expect(await server.models.Message.countDocuments({ conversationId: conversation?._id })).to.equal(0);
      expect(await server.models.WidgetFile.countDocuments({ visitorId: visitor?._id })).to.equal(0);
      const after = await server.models.Conversation.findById(conversation?._id);
      expect(after?.erasedAt).to.be.instanceOf(Date);
      const records = (await as(widget.token).get('/accounts/gdpr-erasures').expect(200)).body;
      expect(records[0]).to.include({ Id: erased.Id, by: 'email' });
      expect(JSON.stringify(records)).to.not.include('erik@example.org');
    });

    it('erases a visitor by visitor id', async () => {
      await chat({ name: 'Ida', email: 'ida@example.org' }, 'Hi');
      const visitor = await server.models.Visitor.findOne({ email: 'ida@example.org' });
      const erased = (
        await as(widget.token)
          .post('/accounts/gdpr-erasure', { query: String(visitor?._id) })
          .expect(201)
      ).body;
      expect(erased).to.include({ by: 'visitorId', visitors: 1 });
      expect(await server.models.Visitor.findById(visitor?._id)).to.equal(null);
    });

    it("answers 404 for an unknown visitor and for another account's visitor, whose data stays", async () => {
      const other = await createUserInDb(server);
      const ce = await server.models.ChatEndpoint.findOne({ accountId: other.account._id });
      const theirs = await server.models.Visitor.create({
        accountId: other.account._id,
        ceId: ce?._id,
        tokenHash: `x-${Date.now()}`,
        email: 'theirs@example.org',
      });
      const res = await as(widget.token).post('/accounts/gdpr-erasure', { query: 'nobody@example.org' }).expect(404);
      expect(res.body.Message).to.equal('No visitor with this e-mail or visitor id');
      await as(widget.token)
        .post('/accounts/gdpr-erasure', { query: String(theirs._id) })
        .expect(404);
      await as(widget.token).post('/accounts/gdpr-erasure', { query: 'theirs@example.org' }).expect(404);
      expect(await server.models.Visitor.findById(theirs._id)).to.not.equal(null);
      await as(widget.token).post('/accounts/gdpr-erasure', { query: '   ' }).expect(400);
      await as(widget.token).post('/accounts/gdpr-erasure', {}).expect(400);
    });
  });

  it('answers 403 to users who are not admins, and without a session', async () => {
    const admin = await createUserInDb(server);
    const mate = await createUserInDb(server, { account: admin.account, admin: false });
    await as(mate.token).get('/accounts/gdpr-export').expect(403);
    await as(mate.token).post('/accounts/gdpr-export').expect(403);
    await as(mate.token).post('/accounts/gdpr-erasure', { query: 'a@example.org' }).expect(403);
    await as(mate.token).get('/accounts/gdpr-erasures').expect(403);
    await request(server.url).post('/v1/accounts/gdpr-export').expect(403);
    const me = (await as(mate.token).get('/users/current').expect(200)).body;
    expect(me.account.GDPRExportSignedURL).to.equal('');
  });
});
