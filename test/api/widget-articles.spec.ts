import { expect } from 'chai';
import request from 'supertest';
import { type SetUp, setUpRelayWidget, useRelayServer } from '../relay/helpers';

describe('GET /widget/api/{uuid}/articles/{id}', () => {
  let widget: SetUp;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
  });

  const article = async (
    fields: { title: string; slug: string; body: string; language?: string; published?: boolean },
    ceId = widget.ceId,
  ) => {
    const ce = await server.models.ChatEndpoint.findById(ceId);
    if (!ce) throw new Error('no widget');
    const created = await server.models.Article.create({
      accountId: ce.accountId,
      ceId: ce._id,
      language: 'en',
      published: true,
      ...fields,
    });
    server.parley.articleSearch.changed(String(ce._id));
    return String(created._id);
  };

  it('answers a published article as sanitised HTML with its public page, in the visitor’s language when translated, and counts the view', async () => {
    const id = await article({
      title: 'Reset your password',
      slug: 'reset-password',
      body: 'Open **Settings**.\n\n<script>alert(1)</script>\n\n[bad](javascript:alert(1))',
    });
    await article({ title: 'Passwort zurücksetzen', slug: 'reset-password', body: 'Öffnen Sie die Einstellungen.', language: 'de' });
    const res = await request(server.url).get(`/widget/api/${widget.uuid}/articles/${id}?lang=en-US`).expect(200);
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.body).to.have.keys(['id', 'title', 'html', 'url']);
    expect(res.body).to.include({ id, title: 'Reset your password' });
    expect(res.body.html).to.include('<strong>Settings</strong>');
    expect(res.body.html).to.not.match(/<script|href="javascript:/i);
    expect(res.body.url).to.equal(`${server.url}/help/${widget.uuid}/reset-password?lang=en`);

    const german = await request(server.url).get(`/widget/api/${widget.uuid}/articles/${id}?lang=de-DE,de`).expect(200);
    expect(german.body).to.include({ title: 'Passwort zurücksetzen' });
    expect(german.body.url).to.match(/\/reset-password\?lang=de$/);
    const views = await server.models.AnswerEvent.find({ kind: 'view', ceId: widget.ceId }).sort({ at: 1 }).lean();
    expect(views.map((v) => [String(v.articleId) === id, v.language])).to.deep.equal([
      [true, 'en'],
      [false, 'de'],
    ]);
  });

  it("answers 404 with the widget's error shape for a draft, another widget's article, an unknown id or widget", async () => {
    const draft = await article({ title: 'Draft', slug: 'draft', body: 'Not yet.', published: false });
    const other = await setUpRelayWidget(server);
    const foreign = await article({ title: 'Theirs', slug: 'theirs', body: 'Other widget.' }, other.ceId);
    for (const id of [draft, foreign, '0123456789abcdef01234567', 'not-an-id']) {
      const res = await request(server.url).get(`/widget/api/${widget.uuid}/articles/${id}`).expect(404);
      expect(res.body).to.have.keys(['Message', 'Error']);
    }
    const unknown = await request(server.url).get(`/widget/api/nope/articles/${foreign}`).expect(404);
    expect(unknown.body.Error).to.equal('unknown_widget');
    expect(await server.models.AnswerEvent.countDocuments({ kind: 'view', ceId: { $in: [widget.ceId, other.ceId] } })).to.equal(0);
  });
});
