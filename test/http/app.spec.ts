import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import mongoose from 'mongoose';
import request from 'supertest';
import { createApp, DEFAULT_CONSOLE_DIR } from '../../server/app';
import { ValidationError } from '../../server/errors';
import { errorHandler } from '../../server/http/errorHandler';
import { createMailer } from '../../server/mail';
import { SlackAuthors } from '../../server/slack/authors';
import { signUpUser } from '../factories';
import { startTestServer, useServer } from '../helpers/app';
import { captureLogs } from '../helpers/logs';

describe('the HTTP app', () => {
  const server = useServer();

  describe('under /v1', () => {
    it('answers 404 with a JSON { Message, Error } for an unknown path', async () => {
      const res = await request(server.url).get('/v1/no/such/thing').expect(404);
      expect(res.body).to.deep.equal({ Message: 'No such endpoint: GET /v1/no/such/thing', Error: 'not_found' });
    });

    it('answers 400 with a Message, not 500, to a malformed JSON body', async () => {
      const res = await request(server.url).post('/v1/p/sessions').set('Content-Type', 'application/json').send('{"email": ').expect(400);
      expect(res.body).to.deep.equal({ Message: 'The request body is not valid JSON', Error: 'bad_request' });
    });

    it('answers 400 with a Message to a body over the size limit', async () => {
      const res = await request(server.url)
        .post('/v1/p/users')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1_200_000) }));
      expect(res.status).to.equal(400);
      expect(res.body.Message).to.equal('The request body is too large');
    });

    it('answers 400 with a Message, not 500, to a path parameter with a malformed percent-encoding', async () => {
      const user = await signUpUser(server);
      for (const path of [
        '/v1/p/invitations/%E0%A4%A',
        '/v1/chat_endpoints/%E0%A4%A',
        '/widget/api/%E0%A4%A/config',
        '/v1/api/conversations/%zz',
      ]) {
        const res = await request(server.url).get(path).set('Authorization', `Bearer ${user.token}`);
        expect(res.status, path).to.equal(400);
        expect(res.body.Message, path).to.equal('The address is not valid: it has a malformed percent-encoding');
      }
    });

    it('answers 400 when the body is JSON but not an object', async () => {
      const res = await request(server.url).post('/v1/p/sessions').set('Content-Type', 'application/json').send('[1,2]').expect(400);
      expect(res.body.Message).to.equal('The request body must be a JSON object');
    });

    it('tells browsers and proxies not to store any answer', async () => {
      const user = await signUpUser(server);
      const res = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${user.token}`).expect(200);
      expect(res.headers['cache-control']).to.equal('no-store');
    });

    it('names the field when the problem is a wrong type', async () => {
      const res = await request(server.url)
        .post('/v1/p/users')
        .send({ email: 'a@example.com', password: 'long enough', tklID: 7 })
        .expect(400);
      expect(res.body.Message).to.equal('tklID: Invalid input: expected string, received number');
    });

    it('answers 400 naming the field that is not expected', async () => {
      const res = await request(server.url)
        .post('/v1/p/users/password_reset_email')
        .send({ email: 'a@example.com', admin: true })
        .expect(400);
      expect(res.body.Message).to.equal('Unexpected field: admin');
    });
  });

  describe('security headers', () => {
    it('sends helmet headers and hides the framework', async () => {
      const res = await request(server.url).get('/v1/no/such/thing');
      expect(res.headers['x-content-type-options']).to.equal('nosniff');
      expect(res.headers['content-security-policy']).to.contain("default-src 'self'");
      expect(res.headers).not.to.have.property('x-powered-by');
    });

    it('does not ask browsers to upgrade to https on a plain http deployment', async () => {
      const res = await request(server.url).get('/');
      expect(res.headers['content-security-policy']).not.to.contain('upgrade-insecure-requests');
      expect(res.headers).not.to.have.property('strict-transport-security');
    });
  });

  describe('the console under /app', () => {
    let consoleDir: string;
    let app: express.Express;
    before(() => {
      consoleDir = mkdtempSync(path.join(tmpdir(), 'parley-console-'));
      writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>Parley</title><script src="main-ABCD1234.js"></script>');
      writeFileSync(path.join(consoleDir, 'main-ABCD1234.js'), 'console.log("parley")');
      writeFileSync(path.join(consoleDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
      app = createApp({
        config: server.config,
        models: server.models,
        mailer: createMailer(server.config.mail),
        logger: server.parley.logger,
        metrics: server.parley.metrics,
        consoleDir,
        billing: server.parley.billing,
        relay: server.parley.relay,
        slack: server.parley.slack,
        slackAuthors: new SlackAuthors(server.parley.slack, server.parley.logger),
        homeTabs: server.parley.homeTabs,
        articleSearch: server.parley.articleSearch,
        pastAnswers: server.parley.pastAnswers,
      });
    });
    after(() => rmSync(consoleDir, { recursive: true, force: true }));

    it('serves, when given no folder, the console `npm run build` writes (dist/web/console at the repository root)', () => {
      expect(DEFAULT_CONSOLE_DIR).to.equal(path.resolve(__dirname, '..', '..', 'dist', 'web', 'console'));
    });

    it('redirects / to /app/', async () => {
      const res = await request(app).get('/').expect(302);
      expect(res.headers.location).to.equal('/app/');
    });

    it('serves index.html at /app/ and makes the browser revalidate it every time', async () => {
      const res = await request(app).get('/app/').expect(200);
      expect(res.text).to.contain('<title>Parley</title>');
      expect(res.headers['cache-control']).to.equal('no-cache');
    });

    it('lets browsers keep hashed bundles for a year', async () => {
      const res = await request(app).get('/app/main-ABCD1234.js').expect(200);
      expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    });

    it('revalidates files without a hash in their name', async () => {
      const res = await request(app).get('/app/favicon.svg').expect(200);
      expect(res.headers['cache-control']).to.equal('no-cache');
    });

    it('answers 503 with instructions when the console has not been built', async () => {
      const bare = createApp({
        config: server.config,
        models: server.models,
        mailer: createMailer(server.config.mail),
        logger: server.parley.logger,
        metrics: server.parley.metrics,
        consoleDir: path.join(consoleDir, 'missing'),
        billing: server.parley.billing,
        relay: server.parley.relay,
        slack: server.parley.slack,
        slackAuthors: new SlackAuthors(server.parley.slack, server.parley.logger),
        homeTabs: server.parley.homeTabs,
        articleSearch: server.parley.articleSearch,
        pastAnswers: server.parley.pastAnswers,
      });
      const res = await request(bare).get('/app/').expect(503);
      expect(res.text).to.contain('npm run build');
    });
  });

  describe('the error handler', () => {
    function appThrowing(error: unknown) {
      const logs = captureLogs();
      const logged = () => logs.lines().filter((line) => line.level === 'error');
      const app = express();
      app.get('/boom', () => {
        throw error;
      });
      app.use(errorHandler(logs.logger));
      return { app, logged };
    }

    it('answers an unexpected error with a generic 500 that leaks nothing, and logs its stack', async () => {
      const { app, logged } = appThrowing(new Error('password=hunter2 at db.internal:27017'));
      const res = await request(app).get('/boom').expect(500);
      expect(res.body).to.deep.equal({ Message: 'An unexpected error occurred, please contact support', Error: 'internal_error' });
      expect(JSON.stringify(res.body)).not.to.contain('hunter2');
      const stack = (logged()[0]?.err as { stack?: string } | undefined)?.stack;
      expect(stack).to.contain('hunter2').and.contain('app.spec.ts');
    });

    it('answers 400, not 500, when a model refuses a value that got past a route', async () => {
      const Thing = mongoose.models.Thing ?? mongoose.model('Thing', new mongoose.Schema({ size: { type: Number, min: 1 } }));
      const invalid: unknown = await new Thing({ size: 0 }).validate().catch((error: unknown) => error);
      expect(invalid).to.be.instanceOf(mongoose.Error.ValidationError);
      const cast = new mongoose.Error.CastError('ObjectId', 'nope', '_id');
      for (const error of [invalid, cast]) {
        const { app, logged } = appThrowing(error);
        const res = await request(app).get('/boom').expect(400);
        expect(res.body.Error).to.equal('bad_request');
        expect(res.body.Message).to.match(/^Invalid value for (size|_id)$/);
        expect(logged()).to.have.length(0);
      }
    });

    it('answers an error class with its status and code, without logging it', async () => {
      const { app, logged } = appThrowing(new ValidationError('Channel name has spaces', 'bad_channel'));
      const res = await request(app).get('/boom').expect(400);
      expect(res.body).to.deep.equal({ Message: 'Channel name has spaces', Error: 'bad_channel' });
      expect(logged()).to.have.length(0);
    });
  });

  describe('the developer outbox', () => {
    it('lists sent mails as HTML, newest first, with clickable links', async () => {
      const first = await signUpUser(server);
      const second = await signUpUser(server);
      await request(server.url).post('/v1/p/users/password_reset_email').send({ email: first.email }).expect(200);
      await request(server.url).post('/v1/p/users/password_reset_email').send({ email: second.email }).expect(200);
      const res = await request(server.url).get('/dev/outbox').expect(200);
      expect(res.headers['content-type']).to.contain('text/html');
      expect(res.text.indexOf(second.email)).to.be.lessThan(res.text.indexOf(first.email));
      expect(res.text).to.match(new RegExp(`<a href="${server.url}/app/#/reset_password\\?token=[A-Za-z0-9]{64}">`));
    });

    it('lists the same mails as JSON', async () => {
      const user = await signUpUser(server);
      await request(server.url).post('/v1/p/users/password_reset_email').send({ email: user.email }).expect(200);
      const res = await request(server.url).get('/dev/outbox.json').expect(200);
      expect(res.body[0].to).to.equal(user.email);
      expect(res.body[0].links[0]).to.contain('/app/#/reset_password?token=');
    });

    it('does not exist when mail goes to an SMTP server', async () => {
      const smtp = await startTestServer({ mail: { ...server.config.mail, smtpUrl: 'smtp://127.0.0.1:2525' } });
      try {
        await request(smtp.url).get('/dev/outbox').expect(404);
        await request(smtp.url).get('/dev/outbox.json').expect(404);
      } finally {
        await smtp.close();
      }
    });
  });
});
