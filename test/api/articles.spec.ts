import { expect } from 'chai';
import request from 'supertest';
import { payingAfterTrial } from '../commands/helpers';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { firstWidgetId } from '../slack/helpers';

describe('articles API', () => {
  let token: string;
  let ceId: string;
  const server = useServer();
  beforeEach(async () => {
    ({ token } = await signUpUser(server));
    ceId = await firstWidgetId(server, token);
  });

  const path = (id = ceId) => `/v1/chat_endpoints/${id}/articles`;
  const as = (t: string | undefined, req: request.Test) => (t ? req.set('Authorization', `Bearer ${t}`) : req);
  const create = (body: Record<string, unknown>, status = 201, t = token) =>
    as(t, request(server.url).post(path())).send(body).expect(status);

  it('creates an article (201 with its Id and a slug from the title), lists, reads, updates and deletes it', async () => {
    const created = await create({ title: 'How do I reset my password?', body: 'Open **Settings**.', language: 'en', published: true });
    expect(created.body).to.include({
      title: 'How do I reset my password?',
      slug: 'how-do-i-reset-my-password',
      language: 'en',
      published: true,
      chatEndpointId: ceId,
    });
    expect(created.body.Id).to.equal(created.body.id);
    const id = String(created.body.id);
    await create({ title: 'Tarifs', body: 'Les prix.', language: 'fr', published: false });

    const all = await as(token, request(server.url).get(path())).expect(200);
    expect(all.body).to.include({ total: 2, limit: 0 });
    expect(all.body.languages).to.deep.equal(['en', 'fr']);
    expect(all.body.articles.map((a: { title: string }) => a.title)).to.deep.equal(['Tarifs', 'How do I reset my password?']);
    const found = await as(token, request(server.url).get(path()).query({ q: 'SETTINGS', language: 'en' })).expect(200);
    expect(found.body.articles.map((a: { id: string }) => a.id)).to.deep.equal([id]);

    expect((await as(token, request(server.url).get(`${path()}/${id}`)).expect(200)).body.body).to.equal('Open **Settings**.');
    const updated = await as(token, request(server.url).put(`${path()}/${id}`))
      .send({ title: 'Reset a password', body: 'Two steps.', language: 'en', published: false })
      .expect(200);
    expect(updated.body).to.include({ title: 'Reset a password', slug: 'how-do-i-reset-my-password', published: false });

    await as(token, request(server.url).delete(`${path()}/${id}`)).expect(200);
    await as(token, request(server.url).get(`${path()}/${id}`)).expect(404);
    expect((await as(token, request(server.url).get(path())).expect(200)).body.total).to.equal(1);
  });

  it("answers the preview of a body as the server's one sanitised HTML", async () => {
    const res = await as(token, request(server.url).post(`${path()}/preview`))
      .send({ body: '## Steps\n\n1. **Open** [it](https://x.example)\n\n<script>alert(1)</script> [bad](javascript:alert(2))' })
      .expect(200);
    expect(res.body.html).to.include('<h2>Steps</h2>').and.include('<strong>Open</strong>').and.include('href="https://x.example"');
    expect(res.body.html).to.not.match(/<script|href="javascript:/i);
    expect(res.body.html.match(/<a /g)).to.have.length(1);
  });

  it('answers 400 with a Message for bad input and for a slug the language already has', async () => {
    expect((await create({ title: '  ', body: 'x' }, 400)).body.Message).to.equal('title: Required.');
    expect((await create({ title: 'x', language: 'ru' }, 400)).body.Message).to.match(/^language: One of en, es/);
    expect((await create({ title: 'x', published: 'yes' }, 400)).body.Error).to.be.a('string');
    expect((await create({ title: 'x', slug: 'Not A Slug' }, 400)).body.Message).to.equal(
      'slug: Lower-case letters, digits and dashes only.',
    );
    await create({ title: 'First', slug: 'help' });
    expect((await create({ title: 'Second', slug: 'help' }, 400)).body.Message).to.match(/already has that slug/);
    await as(token, request(server.url).get(path()).query({ language: 'xx' })).expect(400);
    await as(token, request(server.url).post(`${path()}/import`))
      .send({ format: 'xml', content: '' })
      .expect(400);
    await as(token, request(server.url).put(`/v1/chat_endpoints/${ceId}/answer_synonyms`))
      .send({ groups: 'pw' })
      .expect(400);
  });

  it('answers 403 without a session (the console API ends the session on it), like every console route', async () => {
    await request(server.url).get(path()).expect(403);
    await request(server.url).post(path()).send({ title: 'a' }).expect(403);
    await request(server.url).get(`/v1/chat_endpoints/${ceId}/answer_synonyms`).expect(403);
  });

  it("answers 404 for another account's widget and article, whatever the body", async () => {
    const { id } = (await create({ title: 'Mine' })).body as { id: string };
    const other = (await signUpUser(server)).token;
    await as(other, request(server.url).get(path())).expect(404);
    await create({ title: 'Theirs' }, 404, other);
    await create({ title: '' }, 404, other);
    await as(other, request(server.url).get(`${path()}/${id}`)).expect(404);
    await as(other, request(server.url).put(`${path()}/${id}`))
      .send({ title: 'Taken over' })
      .expect(404);
    await as(other, request(server.url).delete(`${path()}/${id}`)).expect(404);
    await as(other, request(server.url).post(`${path()}/import`))
      .send({ format: 'csv', content: 'title,body,language\na,b,en', dryRun: false })
      .expect(404);
    const otherCe = await firstWidgetId(server, other);
    await as(token, request(server.url).get(`${path(otherCe)}/${id}`)).expect(404);
    expect((await server.models.Article.findById(id))?.title).to.equal('Mine');
  });

  it('answers 402 with the limit and the plan that lifts it past the Basic plan, for a create and an import', async () => {
    const account = await server.models.ChatEndpoint.findById(ceId);
    // The sign-up's trial subscription reaches Parley through Stripe's webhooks first.
    await server.stripe.settled();
    await payingAfterTrial(server.models, account?.accountId, 'basic');
    await server.models.Article.insertMany(
      Array.from({ length: 25 }, (_, i) => ({ accountId: account?.accountId, ceId, title: `A${i}`, slug: `a${i}`, language: 'en' })),
    );
    const refused = await create({ title: 'One too many' }, 402);
    expect(refused.body).to.deep.equal({
      Message: 'Your Basic plan allows 25 articles per widget. Upgrade to Pro for 250.',
      Error: 'plan_limit',
    });
    await as(token, request(server.url).post(`${path()}/import`))
      .send({ format: 'csv', content: 'title,body,language\nNew,b,en\n', dryRun: false })
      .expect(402);
    const list = await as(token, request(server.url).get(path())).expect(200);
    expect(list.body).to.include({ total: 25, limit: 25 });
  });

  it('imports a CSV after a dry run that creates nothing, and refuses a file with errors in words, all or nothing', async () => {
    const csv = 'title,body,language\nShipping,"Takes **3** days",en\nLivraison,Trois jours,fr\n';
    const dry = await as(token, request(server.url).post(`${path()}/import`))
      .send({ format: 'csv', content: csv, dryRun: true })
      .expect(200);
    expect(dry.body.articles).to.have.length(2);
    expect(dry.body.articles[0]).to.deep.equal({
      title: 'Shipping',
      language: 'en',
      slug: 'shipping',
      published: true,
      bodyPreview: 'Takes 3 days',
    });
    expect(await server.models.Article.countDocuments({ ceId })).to.equal(0);

    const bad = await as(token, request(server.url).post(`${path()}/import`))
      .send({ format: 'csv', content: `${csv},No title,en\n`, dryRun: false })
      .expect(400);
    expect(bad.body.Message).to.equal('Row 4: the title is empty.');
    expect(await server.models.Article.countDocuments({ ceId })).to.equal(0);

    const done = await as(token, request(server.url).post(`${path()}/import`))
      .send({ format: 'csv', content: csv, dryRun: false })
      .expect(201);
    expect(done.body.errors).to.deep.equal([]);
    expect(await server.models.Article.countDocuments({ ceId })).to.equal(2);
  });

  it("imports a Zendesk export larger than the API's usual body limit, its scripts and javascript: links gone", async () => {
    const long = `<p>${'Words and more words. '.repeat(2000)}</p>`;
    const articles = Array.from({ length: 5 }, (_, i) => ({
      title: `Article ${i}`,
      locale: 'en-us',
      draft: i === 0,
      body: `${long}<script>alert(${i})</script><a href="javascript:alert(1)">x</a>`,
    }));
    await as(token, request(server.url).post(`${path()}/import`))
      .send({ format: 'zendesk', content: JSON.stringify({ articles }), dryRun: false })
      .expect(201);
    const stored = await server.models.Article.find({ ceId }).lean();
    expect(stored).to.have.length(5);
    expect(stored.filter((a) => a.published)).to.have.length(4);
    for (const a of stored) expect(a.body).to.not.match(/<script|alert|javascript:/i);
  });

  it('keeps the synonym groups of a widget, one per line', async () => {
    const url = `/v1/chat_endpoints/${ceId}/answer_synonyms`;
    expect((await as(token, request(server.url).get(url)).expect(200)).body).to.deep.equal({ groups: [] });
    await as(token, request(server.url).put(url))
      .send({ groups: ['pw, password', '  ', '2fa, two-factor'] })
      .expect(200);
    expect((await as(token, request(server.url).get(url)).expect(200)).body).to.deep.equal({ groups: ['pw, password', '2fa, two-factor'] });
  });
});
