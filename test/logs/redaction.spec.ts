/**
 * A run of Parley logging everything (LOG_LEVEL trace) through the logger main.ts builds, while a person signs up,
 * logs in, installs Slack through OAuth, chats both ways, uses an API key, resets a password, pays with a card, and
 * Prometheus scrapes: the whole log is then searched for every secret the run used.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import request from 'supertest';
import { startTestServer, type TestServer } from '../helpers/app';
import { payCheckout } from '../helpers/billing';
import { eventually, FAST_RELAY, say, setUpRelayWidget, threadOf, VisitorSocket } from '../relay/helpers';
import { ACME, ALICE, BROWSER } from '../slack/helpers';

const RESET_LINK = /\/app\/#\/reset_password\?token=([A-Za-z0-9]{64})$/;
const CARD = '4242 4242 4242 4242';

describe('logs of a whole run', function () {
  this.timeout(120_000);
  let server: TestServer;
  const chunks: string[] = [];
  const log = () => chunks.join('');
  const lines = () =>
    log()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const secrets = new Map<string, string>();
  const metricsToken = `metrics-${randomBytes(16).toString('hex')}`;

  before(async () => {
    const destination = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    server = await startTestServer({ logLevel: 'trace', metricsToken, relay: FAST_RELAY }, { logDestination: destination });
    for (const [name, value] of Object.entries({
      'JWT secret': server.config.jwtSecret,
      'Slack client secret': server.config.slack.clientSecret,
      'Slack signing secret': server.config.slack.signingSecret,
      'Stripe secret key': server.config.stripe.secretKey,
      'Stripe webhook secret': server.config.stripe.webhookSecret,
      'metrics token': metricsToken,
      'OAuth browser cookie': BROWSER.split('=')[1],
      'card number': CARD,
      'card number, digits only': CARD.replace(/ /g, ''),
    }))
      secrets.set(name, value);

    // Sign-up, login, the console's calls, OAuth into the Slack sandbox, a channel, a chat both ways.
    const widget = await setUpRelayWidget(server);
    secrets.set('session token', widget.token);
    const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${widget.token}`).expect(200);
    const email = me.body.email as string;
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } });
    secrets.set('visitor token', welcome.visitorToken ?? '');
    await say(socket, 'Hello there');
    const threadTs = await threadOf(server, widget.ceId);
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Hi Tom' });
    await socket.next('msg', (f) => f.message.from === 'operator');
    socket.close();
    const installation = await server.models.Installation.findOne({ teamId: ACME, revokedAt: null }).lean();
    secrets.set('Slack bot token', installation?.botToken ?? '');
    for (const [i, t] of (installation?.userTokens ?? []).entries()) secrets.set(`Slack user token ${i}`, t.token);

    // An API key, made and used.
    const generated = await request(server.url)
      .put('/v1/accounts/generate-api-key')
      .set('Authorization', `Bearer ${widget.token}`)
      .send({});
    const apiKey = generated.body.account.apiKey as string;
    secrets.set('API key', apiKey);
    await request(server.url).get('/v1/api/conversations').set('Authorization', `Bearer ${apiKey}`).expect(200);
    await request(server.url).get('/v1/api/conversations').set('Authorization', `Bearer ${apiKey}x`).expect(401);

    // A password reset, then a login with the new password and a failed one.
    await request(server.url).post('/v1/p/users/password_reset_email').send({ email }).expect(200);
    const link = (await server.outbox.latestTo(email))?.links.find((l) => RESET_LINK.test(l)) ?? '';
    const resetToken = RESET_LINK.exec(link)?.[1] ?? '';
    secrets.set('password reset token', resetToken);
    const newPassword = `new secret ${randomBytes(6).toString('hex')}`;
    secrets.set('new password', newPassword);
    await request(server.url).post('/v1/p/users/password_reset').send({ token: resetToken, password: newPassword }).expect(200);
    const login = await request(server.url).post('/v1/p/sessions').send({ email, password: newPassword }).expect(200);
    secrets.set('second session token', login.body.token as string);
    await request(server.url)
      .post('/v1/p/sessions')
      .send({ email, password: `${newPassword}!` });

    // Paying through Checkout with a card; Stripe's webhooks come back signed.
    const account = me.body.accountId as string;
    await eventually(async () =>
      expect((await server.models.Account.findById(account))?.stripeSubscriptionId)
        .to.be.a('string')
        .and.not.equal(''),
    );
    const checkout = await request(server.url)
      .post(`/v1/accounts/${account}/create_checkout_session`)
      .set('Authorization', `Bearer ${login.body.token as string}`)
      .send({ plan: 'parley_basic_monthly' })
      .expect(200);
    const paid = await payCheckout(checkout.body.url as string, CARD);
    expect(paid.status).to.equal(303);
    await fetch(paid.location, { redirect: 'manual' });

    // Prometheus, and someone guessing.
    await request(server.url).get('/metrics').set('Authorization', `Bearer ${metricsToken}`).expect(200);
    await request(server.url)
      .get('/metrics')
      .set('Authorization', `Bearer ${metricsToken.slice(0, -1)}`)
      .expect(401);

    // Failures whose errors carry secrets in their text: a logged error is blanked all the same.
    server.parley.logger.error(
      { err: new Error(`Slack refused ${installation?.botToken ?? ''} with ${server.config.stripe.secretKey}`) },
      'a failure quoting secrets',
    );
    server.parley.logger.warn({ user: { email, password: newPassword }, authorization: `Bearer ${apiKey}` }, 'an object holding secrets');
    await server.stripe.settled();
  });

  after(async () => {
    await server?.close();
  });

  it('holds the run: one JSON line per request, with its request id, and the headers that carried secrets blanked', () => {
    const all = lines();
    expect(all.length).to.be.greaterThan(30);
    const requests = all.filter((line) => typeof line.requestId === 'string' && line.req);
    expect(requests.length).to.be.greaterThan(20);
    const withAuthorization = requests.filter((line) => (line.req as { headers: Record<string, unknown> }).headers.authorization);
    expect(withAuthorization.length).to.be.greaterThan(5);
    for (const line of withAuthorization)
      expect((line.req as { headers: Record<string, unknown> }).headers.authorization).to.equal('[Redacted]');
    expect(all.find((line) => line.msg === 'a failure quoting secrets')).to.have.property('err');
    expect(all.find((line) => line.msg === 'an object holding secrets')).to.deep.include({ authorization: '[Redacted]' });
  });

  it('never holds a secret the run used', () => {
    const text = log();
    expect(secrets.size).to.be.greaterThan(15);
    for (const [name, value] of secrets) {
      expect(value, name).to.have.length.greaterThan(7);
      expect(text.includes(value), `the log holds the ${name}`).to.equal(false);
    }
  });
});
