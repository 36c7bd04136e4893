import { expect } from 'chai';
import request from 'supertest';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { firstWidgetId } from '../slack/helpers';

describe('help-center articles in the public API (/v1/api/articles)', () => {
  const server = useServer();
  let key: string;
  let ceId: string;
  let uuid: string;
  let token: string;

  const apiKeyOf = async (t: string) =>
    (await request(server.url).put('/v1/accounts/generate-api-key').set('Authorization', `Bearer ${t}`).send({}).expect(200)).body.account
      .apiKey as string;
  const api = (path: string, k?: string) => {
    const req = request(server.url).get(`/v1/api${path}`);
    return k === undefined ? req : req.set('Authorization', `Bearer ${k}`);
  };

  before(async () => {
    ({ token } = await signUpUser(server));
    ceId = await firstWidgetId(server, token);
    key = await apiKeyOf(token);
    uuid = (await server.models.ChatEndpoint.findById(ceId))?.Uuid ?? '';
    const write = (body: Record<string, unknown>) =>
      request(server.url).post(`/v1/chat_endpoints/${ceId}/articles`).set('Authorization', `Bearer ${token}`).send(body).expect(201);
    await write({ title: 'Reset your password', body: 'Open **Settings**. <script>alert(1)</script>', language: 'en', published: true });
    await write({ title: 'Réinitialiser', body: 'Ouvrez les réglages.', language: 'fr', published: true });
    await write({ title: 'Draft', body: 'Soon.', language: 'en', published: false });
  });

  it('lists the account’s articles newest first, drafts included, with the sanitised HTML and public URL, paged by cursor', async () => {
    const first = await api('/articles?limit=2', key).expect(200);
    expect(first.body.data.map((a: { title: string }) => a.title)).to.deep.equal(['Draft', 'Réinitialiser']);
    const rest = await api(`/articles?limit=2&cursor=${first.body.nextCursor as string}`, key).expect(200);
    expect(rest.body.nextCursor).to.equal(null);
    const [article] = rest.body.data;
    expect(article).to.include({
      title: 'Reset your password',
      language: 'en',
      slug: 'reset-your-password',
      published: true,
      widgetId: uuid,
    });
    expect(article.html).to.include('<strong>Settings</strong>').and.not.include('<script');
    expect(article.url).to.equal(`${server.url}/help/${uuid}/reset-your-password?lang=en`);
    expect(article).to.have.keys([
      'id',
      'widgetId',
      'title',
      'body',
      'html',
      'language',
      'slug',
      'published',
      'url',
      'createdAt',
      'updatedAt',
    ]);

    const french = await api(`/articles?language=fr&widgetId=${uuid}`, key).expect(200);
    expect(french.body.data.map((a: { title: string }) => a.title)).to.deep.equal(['Réinitialiser']);
    expect((await api('/articles?widgetId=not-mine', key).expect(200)).body.data).to.deep.equal([]);
    expect((await api('/articles?language=ru', key).expect(400)).body.Message).to.match(/^language: one of/);

    const one = await api(`/articles/${article.id as string}`, key).expect(200);
    expect(one.body).to.deep.equal(article);
  });

  it("answers 404 for another account's key and lists none of these articles to it", async () => {
    const someone = await signUpUser(server);
    const otherKey = await apiKeyOf(someone.token);
    const { data } = (await api('/articles', key).expect(200)).body as { data: { id: string }[] };
    expect((await api('/articles', otherKey).expect(200)).body.data).to.deep.equal([]);
    expect((await api(`/articles?widgetId=${uuid}`, otherKey).expect(200)).body.data).to.deep.equal([]);
    await api(`/articles/${data[0]?.id ?? ''}`, otherKey).expect(404);
  });

  it('answers 401 without a key or with a session token instead of one', async () => {
    const { data } = (await api('/articles', key).expect(200)).body as { data: { id: string }[] };
    expect((await api('/articles').expect(401)).body.Error).to.be.a('string');
    await api(`/articles/${data[0]?.id ?? ''}`).expect(401);
    await api('/articles', token).expect(401);
  });
});
