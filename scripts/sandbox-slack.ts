// `npm run sandbox:slack`: runs the Slack sandbox alone, as its own process, so Parley (or any Slack app) can
// point SLACK_API_URL / SLACK_OAUTH_URL at it.
//   --port 3100 (or SANDBOX_SLACK_PORT; 0 picks a free port)   where to listen
//   --base-url http://host:port                     public URL of the sandbox when it differs (proxy, container)
//   --app-url http://localhost:3000                 the app's base URL; its endpoints default to <app-url>/slack/events
//   --events-url / --interactivity-url / --commands-url   override each endpoint
//   --client-id / --client-secret / --signing-secret      the app's credentials (or SLACK_CLIENT_ID …)
//   --seed file.json   --data-file file.json        seed and persistence
//   --rate-limits slack                             enforce Slack's rate-limit tiers (default: off)
//   --test-controls                                 POST /test-controls/faults sets the sandbox's faults from another
//                                                   process: { fault: 'failFor' | 'dropResponses' | 'rateLimit' | 'clear', … }

import path from 'node:path';
import { parseArgs } from 'node:util';
import express from 'express';
import { z } from 'zod';
import { createSlackSandbox, type SlackSandbox } from '../server/sandbox/slack';

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
    'rate-limits': { type: 'string' },
    'test-controls': { type: 'boolean' },
  },
});

/** The fault knobs of SandboxState (server/sandbox/slack/README.md), one request each. */
const Fault = z.discriminatedUnion('fault', [
  z.object({ fault: z.literal('clear') }),
  z.object({ fault: z.literal('failFor'), method: z.string(), seconds: z.number().positive(), status: z.number().int().optional() }),
  z.object({ fault: z.literal('rateLimit'), method: z.string(), seconds: z.number().positive() }),
  z.object({
    fault: z.literal('dropResponses'),
    method: z.string(),
    times: z.number().int().positive().optional(),
    seconds: z.number().positive().optional(),
    mode: z.enum(['reset', 'hang']).optional(),
    holdMs: z.number().int().positive().optional(),
  }),
]);

function setFault(sandbox: SlackSandbox, fault: z.infer<typeof Fault>): void {
  const { state } = sandbox;
  if (fault.fault === 'clear') state.clearFaults();
  else if (fault.fault === 'failFor') state.failFor(fault.method, fault.seconds, fault.status);
  else if (fault.fault === 'rateLimit') state.rateLimit(fault.method, fault.seconds);
  else state.dropResponses(fault.method, fault);
}

const env = process.env;
const port = Number(values.port ?? env.SANDBOX_SLACK_PORT ?? 3100);
const host = values.host ?? env.SANDBOX_SLACK_HOST ?? '127.0.0.1';
const appUrl = (values['app-url'] ?? env.APP_URL ?? env.PUBLIC_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const defaultEndpoint = `${appUrl}/slack/events`;
const eventsUrl = values['events-url'] ?? env.SLACK_EVENTS_URL ?? defaultEndpoint;

// Listen first so that --port 0 works: the sandbox needs its public URL before it is created.
const app = express();
let router: express.Router | null = null;
let started: SlackSandbox | null = null;
if (values['test-controls']) {
  app.post('/test-controls/faults', express.json(), (req, res) => {
    const fault = Fault.safeParse(req.body);
    if (!started || !fault.success) {
      res.status(400).json({ ok: false, error: fault.error?.message ?? 'not started' });
      return;
    }
    try {
      setFault(started, fault.data);
      res.json({ ok: true });
    } catch (error) {
      res.status(400).json({ ok: false, error: (error as Error).message });
    }
  });
}
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
    rateLimits: values['rate-limits'] === 'slack' ? 'slack' : 'off',
  });
  router = sandbox.router;
  started = sandbox;
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
