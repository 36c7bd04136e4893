// `npm run sandbox:slack`: runs the Slack sandbox alone, as its own process, so Parley (or any Slack app) can
// point SLACK_API_URL / SLACK_OAUTH_URL at it.
//   --port 3100 (or SANDBOX_SLACK_PORT; 0 picks a free port)   where to listen
//   --base-url http://host:port                     public URL of the sandbox when it differs (proxy, container)
//   --app-url http://localhost:3000                 the app's base URL; its endpoints default to <app-url>/slack/events
//   --events-url / --interactivity-url / --commands-url   override each endpoint
//   --client-id / --client-secret / --signing-secret      the app's credentials (or SLACK_CLIENT_ID …)
//   --seed file.json   --data-file file.json        seed and persistence

import path from 'node:path';
import { parseArgs } from 'node:util';
import express from 'express';
import { createSlackSandbox } from '../server/sandbox/slack';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'base-url': { type: 'string' },
    'app-url': { type: 'string' },
    'events-url': { type: 'string' },
    'interactivity-url': { type: 'string' },
    'commands-url': { type: 'string' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    'signing-secret': { type: 'string' },
    'app-id': { type: 'string' },
    seed: { type: 'string' },
    'data-file': { type: 'string' },
  },
});

const env = process.env;
const port = Number(values.port ?? env.SANDBOX_SLACK_PORT ?? 3100);
const host = values.host ?? env.SANDBOX_SLACK_HOST ?? '127.0.0.1';
const appUrl = (values['app-url'] ?? env.APP_URL ?? env.PUBLIC_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const defaultEndpoint = `${appUrl}/slack/events`;
const eventsUrl = values['events-url'] ?? env.SLACK_EVENTS_URL ?? defaultEndpoint;

// Listen first so that --port 0 works: the sandbox needs its public URL before it is created.
const app = express();
let router: express.Router | null = null;
app.use((req, res, next) => (router ? router(req, res, next) : next()));
const server = app.listen(port, host, () => {
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const baseUrl = (
    values['base-url'] ??
    env.SANDBOX_SLACK_URL ??
    `http://${host === '0.0.0.0' ? 'localhost' : host}:${actualPort}`
  ).replace(/\/+$/, '');
  const sandbox = createSlackSandbox({
    baseUrl,
    app: {
      clientId: values['client-id'] ?? env.SLACK_CLIENT_ID ?? 'sandbox-client-id',
      clientSecret: values['client-secret'] ?? env.SLACK_CLIENT_SECRET ?? 'sandbox-client-secret',
      signingSecret: values['signing-secret'] ?? env.SLACK_SIGNING_SECRET ?? 'sandbox-signing-secret',
      appId: values['app-id'] ?? env.SLACK_APP_ID,
      eventsUrl,
      interactivityUrl: values['interactivity-url'] ?? env.SLACK_INTERACTIVITY_URL ?? defaultEndpoint,
      commandsUrl: values['commands-url'] ?? env.SLACK_COMMANDS_URL ?? defaultEndpoint,
    },
    seed: values.seed,
    dataFile: values['data-file'] ? path.resolve(values['data-file']) : undefined,
  });
  router = sandbox.router;
  console.log(`Slack sandbox on ${baseUrl}/`);
  console.log(`  SLACK_API_URL=${sandbox.apiUrl}`);
  console.log(`  SLACK_OAUTH_URL=${sandbox.authorizeUrl}`);
  console.log(`  delivering events to ${eventsUrl}`);

  const stop = () => {
    void sandbox.close().then(() => server.close(() => process.exit(0)));
    server.closeAllConnections();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
});
