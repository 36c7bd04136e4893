import { expect } from 'chai';
import type { Types } from 'mongoose';
import request from 'supertest';
import { createUserInDb } from '../factories';
import { useServer } from '../helpers/app';

describe('GET /widget/api/{uuid}/articles/search', () => {
  const server = useServer({ trustProxy: true, relay: { articleSearchesPerIpPerMinute: 6 } });
  let uuid: string;
  let ceId: Types.ObjectId;
  let client = 0;
  /** Each test searches from an address of its own, so the per-address limit of one test leaves the others alone. */
  let ip: string;
  beforeEach(() => {
    client++;
    ip = `203.0.113.${client}`;
  });
  before(async () => {
    const { account } = await createUserInDb(server);
    const widget = await server.models.ChatEndpoint.findOne({ accountId: account._id }).orFail();
    uuid = widget.Uuid;
    ceId = widget._id;
    await server.models.Article.create([
      {
        accountId: account._id,
        ceId,
        title: 'Reset a forgotten password',
        body: 'Use **Forgot password** on the sign-in page.',
        language: 'en',
        slug: 'reset',
        published: true,
      },
      {
        accountId: account._id,
        ceId,
        title: 'Réinitialiser le mot de passe',
        body: 'Choisissez Mot de passe oublié.',
        language: 'fr',
        slug: 'reset',
        published: true,
      },
    ]);
  });
  const searchFor = (query: Record<string, string>) =>
    request(server.url).get(`/widget/api/${uuid}/articles/search`).query(query).set('X-Forwarded-For', ip);

  it("answers the visitor's language's articles with marked snippets, readable from any site", async () => {
    const res = await searchFor({ q: "j'ai oublié mon mot de passe", lang: 'fr-CA,fr,en' }).expect(200);
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.body.articles.map((a: { title: string }) => a.title)).to.deep.equal(['Réinitialiser le mot de passe']);
    expect(res.body.articles[0]).to.have.all.keys('id', 'title', 'snippet', 'url', 'score');
    const english = await searchFor({ q: 'i forgot my pw', lang: 'en' }).expect(200);
    expect(english.body.articles[0]).to.include({ title: 'Reset a forgotten password' });
    expect(english.body.articles[0].snippet).to.include('<mark>Forgot</mark>');
    expect(english.body.articles[0].url).to.match(new RegExp(`/help/${uuid}/reset\\?lang=en$`));
  });

  it('answers [] to an empty or unrelated question and 400 with a Message to an over-long or malformed one, never 5xx', async () => {
    expect((await searchFor({ q: '', lang: 'en' }).expect(200)).body).to.deep.equal({ articles: [] });
    expect((await searchFor({ lang: 'en' }).expect(200)).body).to.deep.equal({ articles: [] });
    expect((await searchFor({ q: 'do you sell printers', lang: 'en' }).expect(200)).body).to.deep.equal({ articles: [] });
    const long = await searchFor({ q: 'a'.repeat(501), lang: 'en' }).expect(400);
    expect(long.body).to.have.all.keys('Message', 'Error');
    const twice = await request(server.url).get(`/widget/api/${uuid}/articles/search?q=a&q=b`).set('X-Forwarded-For', `${ip}0`);
    expect(twice.status).to.equal(400);
    const unknown = await request(server.url).get('/widget/api/no-such-widget/articles/search?q=password').set('X-Forwarded-For', `${ip}1`);
    expect(unknown.status).to.equal(404);
  });

  it('answers 429 with a Message after too many searches from one address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await searchFor({ q: `password ${i}`, lang: 'en' })).status);
    expect(statuses.slice(0, 6)).to.deep.equal([200, 200, 200, 200, 200, 200]);
    expect(statuses.slice(6)).to.deep.equal([429, 429]);
    const limited = await searchFor({ q: 'password', lang: 'en' }).expect(429);
    expect(limited.body).to.include({ Error: 'rate_limited' });
    expect(limited.headers['access-control-allow-origin']).to.equal('*');
  });

  it('records one search event for record=1, and none for the searches typed on the way', async () => {
    await searchFor({ q: 'forg', lang: 'en' }).expect(200);
    await searchFor({ q: 'forgot passw', lang: 'en', record: '0' }).expect(200);
    await searchFor({ q: 'forgot password', lang: 'en', record: '1' }).expect(200);
    await searchFor({ q: 'do you sell printers', lang: 'en', record: '1' }).expect(200);
    const events = await server.models.AnswerEvent.find({ ceId, kind: 'search' }).sort({ at: 1 }).lean();
    expect(events.map(({ query, language, hits }) => ({ query, language, hits }))).to.deep.equal([
      { query: 'forgot password', language: 'en', hits: 1 },
      { query: 'do you sell printers', language: 'en', hits: 0 },
    ]);
  });
});
