/**
 * PUT /v1/chat_endpoints/{id}/identity_secret: an admin gets a new identity secret once; members, other accounts
 * and anonymous callers get nothing; no other answer (console, widget config, settings saves, GDPR export) carries it.
 */
import { expect } from 'chai';
import request from 'supertest';
import type { GdprExportView } from '../../server/shared/team';
import { createUserInDb } from '../factories';
import { unzip } from '../helpers/zip';
import { eventually, type SetUp, setUpRelayWidget, useRelayServer } from '../relay/helpers';

describe('identity secret (PUT /v1/chat_endpoints/{id}/identity_secret)', () => {
  const server = useRelayServer();
  let widget: SetUp;
  before(async () => {
    widget = await setUpRelayWidget(server);
  });

  const as = (token: string) => ({
    get: (path: string) => request(server.url).get(`/v1${path}`).set('Authorization', `Bearer ${token}`),
    put: (path: string, body?: object) => request(server.url).put(`/v1${path}`).set('Authorization', `Bearer ${token}`).send(body),
    post: (path: string) => request(server.url).post(`/v1${path}`).set('Authorization', `Bearer ${token}`),
  });
  const stored = async (ceId: string) => (await server.models.ChatEndpoint.findById(ceId))?.identitySecret ?? '';

  it('gives an admin a new secret once, a different one each time, and shows only when it was made', async () => {
    expect((await as(widget.token).get('/users/current').expect(200)).body.ces[0].identitySecretCreatedAt).to.equal(null);
    const first = await as(widget.token).put(`/chat_endpoints/${widget.ceId}/identity_secret`).expect(200);
    expect(Object.keys(first.body)).to.deep.equal(['identitySecret']);
    expect(first.body.identitySecret).to.match(/^[0-9a-f]{64}$/);
    expect(await stored(widget.ceId)).to.equal(first.body.identitySecret);

    const second = await as(widget.token).put(`/chat_endpoints/${widget.ceId}/identity_secret`).expect(200);
    expect(second.body.identitySecret)
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.equal(first.body.identitySecret);
    expect(await stored(widget.ceId)).to.equal(second.body.identitySecret);

    const me = (await as(widget.token).get('/users/current').expect(200)).body;
    const madeAt = Date.parse(me.ces[0].identitySecretCreatedAt);
    expect(Date.now() - madeAt).to.be.within(0, 60_000);
  });

  it('answers 403 to a member of the account and leaves the secret as it was', async () => {
    await as(widget.token).put(`/chat_endpoints/${widget.ceId}/identity_secret`).expect(200);
    const before = await stored(widget.ceId);
    const account = await server.models.Account.findById((await widget.widget()).accountId);
    if (!account) throw new Error('no account');
    const member = await createUserInDb(server, { admin: false, account });
    const res = await request(server.url)
      .put(`/v1/chat_endpoints/${widget.ceId}/identity_secret`)
      .set('Authorization', `Bearer ${member.token}`)
      .expect(403);
    expect(res.body.Message).to.be.a('string').and.not.equal('');
    expect(res.body).to.not.have.property('identitySecret');
    expect(await stored(widget.ceId)).to.equal(before);
  });

  it("answers 404 to another account's admin, and to unknown and malformed ids; 401 without a session", async () => {
    const before = await stored(widget.ceId);
    const stranger = await createUserInDb(server);
    for (const id of [widget.ceId, '0123456789abcdef01234567', 'not-an-id']) {
      const res = await as(stranger.token).put(`/chat_endpoints/${id}/identity_secret`).expect(404);
      expect(res.body).to.have.property('Message');
      expect(res.body).to.not.have.property('identitySecret');
    }
    const anonymous = await request(server.url).put(`/v1/chat_endpoints/${widget.ceId}/identity_secret`);
    expect(anonymous.status).to.be.oneOf([401, 403]);
    expect(await stored(widget.ceId)).to.equal(before);
  });

  it('is returned by no other call: the console reads, settings saves, the widget config and the GDPR export', async () => {
    const { identitySecret } = (await as(widget.token).put(`/chat_endpoints/${widget.ceId}/identity_secret`).expect(200)).body;
    const answers: string[] = [];
    const keep = (res: request.Response) => answers.push(res.text);
    keep(await as(widget.token).get('/users/current').expect(200));
    keep(await as(widget.token).get('/users/current/chat_endpoints').expect(200));
    keep(await as(widget.token).put(`/chat_endpoints/${widget.ceId}/update_config`, { requireVerifiedIdentity: true }).expect(200));
    keep(await as(widget.token).put(`/chat_endpoints/${widget.ceId}/toggle/on`).expect(200));
    keep(await as(widget.token).get(`/chat_endpoints/${widget.ceId}/permissions`).expect(200));
    keep(await request(server.url).get(`/widget/api/${widget.uuid}/config`).expect(200));
    for (const text of answers) expect(text).to.not.include(identitySecret);
    // Nor can a settings save set it: the secret is not a setting (an unknown setting is refused).
    await as(widget.token).put(`/chat_endpoints/${widget.ceId}/update_config`, { identitySecret: 'chosen-by-me' }).expect(400);
    expect(await stored(widget.ceId)).to.equal(identitySecret);
    expect(JSON.parse(answers[2] ?? '{}')).to.include({ requireVerifiedIdentity: true });

    await as(widget.token).post('/accounts/gdpr-export').expect(202);
    let view: GdprExportView | null = null;
    await eventually(async () => {
      view = (await as(widget.token).get('/accounts/gdpr-export').expect(200)).body as GdprExportView;
      expect(view.status).to.equal('ready');
    });
    const url = new URL((view as unknown as GdprExportView).url);
    const archive = await request(server.url)
      .get(url.pathname + url.search)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const files = await unzip(archive.body as Buffer);
    expect(files.get('widgets.jsonl')).to.include(widget.uuid);
    for (const [, text] of files) expect(text).to.not.include(identitySecret);
  });
});
