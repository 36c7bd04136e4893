import { Writable } from 'node:stream';
import { expect } from 'chai';
import request from 'supertest';
import { OAUTH_REDIRECT_PATH } from '../../server/slack';
import { signUpUser } from '../factories';
import { startTestServer, type TestServer } from '../helpers/app';
import { firstWidgetId } from '../slack/helpers';

describe('request logs', () => {
  let server: TestServer;
  const chunks: string[] = [];
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown> & { req?: { url: string } });
  const lineOf = (requestId: string) => lines().find((line) => line.requestId === requestId && line.req);

  before(async () => {
    const destination = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    server = await startTestServer({ logLevel: 'info' }, { logDestination: destination });
  });
  after(() => server?.close());

  it("takes the caller's X-Request-Id, sends it back, and logs the request under it with the account and widget", async () => {
    const user = await signUpUser(server);
    const ceId = await firstWidgetId(server, user.token);
    const res = await request(server.url)
      .get(`/v1/chat_endpoints/${ceId}/saved_replies`)
      .set('Authorization', `Bearer ${user.token}`)
      .set('X-Request-Id', 'lb-7f3a.42')
      .expect(200);
    expect(res.headers['x-request-id']).to.equal('lb-7f3a.42');
    const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${user.token}`).expect(200);
    const line = lineOf('lb-7f3a.42');
    expect(line).to.include({ level: 'info', widgetId: ceId, accountId: me.body.accountId });
    expect(line?.req?.url).to.equal(`/v1/chat_endpoints/${ceId}/saved_replies`);
    expect(line?.msg).to.match(/^GET \/v1\/chat_endpoints\/\w+\/saved_replies 200 \d+ ms$/);
  });

  it('makes a request id when none (or no usable one) was sent, and sends it back', async () => {
    const made = await request(server.url).get('/health').expect(200);
    expect(made.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    const refused = await request(server.url).get('/v1/no/such').set('X-Request-Id', 'two words\u00e9').expect(404);
    expect(refused.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    expect(lineOf(refused.headers['x-request-id'] as string)).to.include({ level: 'info' });
  });

  it("logs an outage the Slack sandbox was told to act as Slack's answer (info, no stack), not as Parley failing", async () => {
    server.slack.state.failNext('chat.postMessage', 1, 503);
    const res = await request(server.url).post('/sandbox/slack/api/chat.postMessage').type('form').send({ channel: 'C1', text: 'hi' });
    expect(res.status).to.equal(503);
    const line = lineOf(res.headers['x-request-id'] as string);
    expect(line).to.include({
      level: 'info',
      msg: 'POST /sandbox/slack/api/chat.postMessage 503 answered as the sandbox was told (an outage it acts)',
    });
    expect(line).not.to.have.property('err');
  });

  it("logs a URL's query keys but never their values (OAuth codes, reset tokens)", async () => {
    const res = await request(server.url).get(`${OAUTH_REDIRECT_PATH}?code=secret-oauth-code&state=secret-state`);
    const line = lineOf(res.headers['x-request-id'] as string);
    expect(line?.req?.url).to.equal(`${OAUTH_REDIRECT_PATH}?code=…&state=…`);
    expect(JSON.stringify(lines())).not.to.contain('secret-oauth-code').and.not.to.contain('secret-state');
  });
});
