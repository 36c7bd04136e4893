/**
 * The public API's contract: the OpenAPI document at /v1/api/openapi.json is a valid OpenAPI 3.1 document, and a
 * live run answers every documented response of every operation exactly as documented (status, required headers,
 * body against its schema), and no response the document does not list.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import request from 'supertest';
import { endConversation } from '../../server/commands/endConversation';
import { sendOfflineMessage } from '../../server/commands/sendOfflineMessage';
import { createUserInDb } from '../factories';
import { type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';

type Method = 'get' | 'post' | 'delete';
type Json = Record<string, unknown>;
type Operation = { responses: Record<string, { headers?: Record<string, { required?: boolean }>; content?: Json }> };
type Document = { openapi: string; servers: { url: string }[]; paths: Record<string, Partial<Record<Method, Operation>>> };

const RATE_LIMIT = 60;
const DOC_ID = 'https://parley.test/openapi.json';
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

describe('the public API contract (GET /v1/api/openapi.json)', () => {
  const server = useRelayServer({ apiKeyRequestsPerMinute: RATE_LIMIT });
  let widget: SetUp;
  let doc: Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  /** `${method} ${path} ${status}` of every response the live run got. */
  const seen = new Set<string>();

  before(async () => {
    widget = await setUpRelayWidget(server);
    const res = await request(server.url).get('/v1/api/openapi.json').expect(200).expect('content-type', /json/);
    doc = res.body as Document;
    ajv.addSchema({ ...doc, $id: DOC_ID });
  });

  const generate = async (token: string, key: 'apiKey' | 'zapierApiKey') =>
    (await request(server.url).put('/v1/accounts/generate-api-key').set('Authorization', `Bearer ${token}`).send({ key }).expect(200)).body
      .account[key] as string;

  /** Calls `method path` (path filled from the template) and checks the answer against the document. */
  const call = async (method: Method, template: string, opts: { path?: string; key?: string; body?: Json } = {}) => {
    const path = opts.path ?? template;
    let req = request(server.url)[method](`/v1/api${path}`);
    if (opts.key) req = req.set('Authorization', `Bearer ${opts.key}`);
    const res = opts.body ? await req.send(opts.body) : await req;
    const what = `${method.toUpperCase()} ${path} ${res.status}`;
    const documented = doc.paths[template]?.[method]?.responses[String(res.status)];
    expect(documented, `${what}: an undocumented response (${JSON.stringify(res.body)})`).to.not.equal(undefined);
    for (const [name, header] of Object.entries(documented?.headers ?? {})) {
      if (header.required) expect(res.headers[name.toLowerCase()], `${what}: header ${name}`).to.be.a('string');
    }
    if (documented?.content) {
      expect(res.headers['content-type'], what).to.match(/^application\/json/);
      const validate = ajv.getSchema(
        `${DOC_ID}#/${pointer('paths', template, method, 'responses', String(res.status), 'content', 'application/json', 'schema')}`,
      );
      if (!validate) throw new Error(`${what}: no schema`);
      expect(validate(res.body), `${what}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(res.body)}`).to.equal(true);
    } else {
      expect(res.text ?? '', what).to.equal('');
    }
    seen.add(`${method} ${template} ${res.status}`);
    return res;
  };

  it('is a valid OpenAPI 3.1 document naming Parley as its server', async () => {
    // The validator is an ES module only.
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const result = await new Validator().validate(doc as unknown as Json);
    expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.servers[0]?.url).to.equal(`${server.url}/v1/api`);
  });

  it('documents every route of /v1/api and its parameters as the routes validate them', async () => {
    expect(Object.keys(doc.paths).sort()).to.deep.equal(
      [
        '/articles',
        '/articles/{id}',
        '/conversations',
        '/conversations/{id}',
        '/hooks',
        '/hooks/{id}',
        '/me',
        '/offline-messages',
        '/visitors',
        '/visitors/{id}',
      ].sort(),
    );
    const list = doc.paths['/conversations']?.get as unknown as { parameters: { name: string; schema: Json }[] } | undefined;
    const params = list?.parameters ?? [];
    expect(params.map((p) => p.name)).to.deep.equal([
      'status',
      'state',
      'assignee',
      'widgetId',
      'email',
      'since',
      'until',
      'limit',
      'cursor',
    ]);
    expect(params.find((p) => p.name === 'limit')?.schema).to.include({ minimum: 1, maximum: 100, default: 50 });
  });

  it('answers every documented response of a live run as documented', async () => {
    const key = await generate(widget.token, 'apiKey');
    const zkey = await generate(widget.token, 'zapierApiKey');
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Erin', email: 'erin@example.org' } });
    await say(socket, 'Do you ship to Lyon?');
    socket.send({ t: 'rate', rating: 'up', feedback: 'Quick' });
    const first = await server.models.Conversation.findOne({ ceId: widget.ceId }).sort({ _id: -1 });
    if (!first) throw new Error('no conversation');
    await endConversation(server.parley.relay, first._id, 'operator');
    await say(socket, 'One more thing');
    socket.close();
    await sendOfflineMessage(
      server.parley.relay,
      await widget.widget(),
      { email: 'later@example.org', message: 'Call me back' },
      { country: '' },
    );

    // 200, 201, 204 with both kinds of key.
    expect((await call('get', '/me', { key })).body.key).to.equal('api');
    await call('get', '/me', { key: zkey });
    const page = await call('get', '/conversations', { path: '/conversations?limit=1', key });
    expect(page.body.nextCursor).to.be.a('string');
    const all = await call('get', '/conversations', {
      path: `/conversations?cursor=${page.body.nextCursor as string}&since=2020-01-01T00:00:00Z`,
      key: zkey,
    });
    expect(all.body.nextCursor).to.equal(null);
    const ended = all.body.data.concat(page.body.data).find((c: { status: string }) => c.status === 'ended');
    const one = await call('get', '/conversations/{id}', { path: `/conversations/${ended.id as string}`, key });
    expect(one.body.messages.map((m: { kind: string }) => m.kind)).to.include('ended');
    const visitors = await call('get', '/visitors', { path: `/visitors?widgetId=${widget.uuid}`, key });
    await call('get', '/visitors/{id}', { path: `/visitors/${visitors.body.data[0].id as string}`, key });
    expect((await call('get', '/offline-messages', { key })).body.data[0]).to.include({ message: 'Call me back' });
    await server.models.Article.create({
      accountId: (await widget.widget()).accountId,
      ceId: widget.ceId,
      title: 'Shipping to Lyon',
      body: 'We ship **everywhere** in France.',
      language: 'fr',
      slug: 'shipping-to-lyon',
    });
    const articles = await call('get', '/articles', { path: `/articles?widgetId=${widget.uuid}&language=fr`, key });
    expect(articles.body.data[0]).to.include({ title: 'Shipping to Lyon', published: false, widgetId: widget.uuid });
    await call('get', '/articles/{id}', { path: `/articles/${articles.body.data[0].id as string}`, key: zkey });
    const hook = await call('post', '/hooks', { key: zkey, body: { event: 'visitor_message', targetUrl: 'https://hooks.example.com/a' } });
    expect(hook.status).to.equal(201);
    await call('get', '/hooks', { key: zkey });
    await call('delete', '/hooks/{id}', { path: `/hooks/${hook.body.id as string}`, key: zkey });

    // 400: bad parameters and bodies.
    for (const path of ['/conversations', '/visitors', '/offline-messages', '/articles'])
      await call('get', path, { path: `${path}?limit=0`, key });
    await call('get', '/articles/{id}', { path: '/articles/not-an-id', key });
    await call('get', '/conversations/{id}', { path: '/conversations/not-an-id', key });
    await call('get', '/visitors/{id}', { path: '/visitors/not-an-id', key });
    await call('post', '/hooks', { key: zkey, body: { event: 'nope', targetUrl: 'https://hooks.example.com/a' } });
    await call('delete', '/hooks/{id}', { path: '/hooks/not-an-id', key: zkey });

    // 404: another account's ids.
    const other = await createUserInDb(server);
    const otherCe = await server.models.ChatEndpoint.findOne({ accountId: other.account._id });
    const otherVisitor = await server.models.Visitor.create({
      accountId: other.account._id,
      ceId: otherCe?._id,
      tokenHash: `c-${Date.now()}`,
    });
    const otherConversation = await server.models.Conversation.create({
      accountId: other.account._id,
      ceId: otherCe?._id,
      number: 1,
      visitorId: otherVisitor._id,
    });
    await call('get', '/conversations/{id}', { path: `/conversations/${String(otherConversation._id)}`, key });
    await call('get', '/visitors/{id}', { path: `/visitors/${String(otherVisitor._id)}`, key });
    const otherArticle = await server.models.Article.create({
      accountId: other.account._id,
      ceId: otherCe?._id,
      title: 'Theirs',
      slug: 'theirs',
    });
    await call('get', '/articles/{id}', { path: `/articles/${String(otherArticle._id)}`, key });
    await call('delete', '/hooks/{id}', { path: `/hooks/${String(otherConversation._id)}`, key: zkey });

    // 401 on every operation without a key; the hooks refuse the API key too.
    const id = String(otherConversation._id);
    const fill = (template: string) => template.replace('{id}', id);
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods) as Method[]) await call(method, template, { path: fill(template) });
    }
    await call('post', '/hooks', { key, body: { event: 'visitor_message', targetUrl: 'https://hooks.example.com/a' } });

    // 429 on every operation once a key has used its minute.
    const spent = await generate(widget.token, 'zapierApiKey');
    for (let i = 0; i < RATE_LIMIT; i++) await request(server.url).get('/v1/api/me').set('Authorization', `Bearer ${spent}`).expect(200);
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods) as Method[]) {
        const res = await call(method, template, { path: fill(template), key: spent, body: method === 'post' ? {} : undefined });
        expect(res.status, `${method} ${template}`).to.equal(429);
      }
    }

    const documented = Object.entries(doc.paths).flatMap(([template, methods]) =>
      Object.entries(methods).flatMap(([method, op]) =>
        Object.keys(op?.responses ?? {}).map((status) => `${method} ${template} ${status}`),
      ),
    );
    expect([...seen].sort()).to.deep.equal(documented.sort());
  });
});
