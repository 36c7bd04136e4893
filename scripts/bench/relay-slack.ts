/**
 * The Slack sandbox of scripts/bench/relay.ts, as its own process: what `npm run sandbox:slack` runs (same flags,
 * same "Slack sandbox on …" line), with Slack's rate limits off (the bench measures Parley, not Slack's pace) and a
 * stopwatch on it, read by the bench over HTTP:
 *   GET  /bench/log   the texts of chat.postMessage calls with when the sandbox received each, and how long each
 *                     event delivery took to be answered (the app's acknowledgement); both emptied by the read
 *   POST /bench/post  { channel, threadTs, texts } posts each text as Alice in the thread (Slack sends the events)
 */
import { parseArgs } from 'node:util';
import express from 'express';
import { createSlackSandbox, type SlackSandbox } from '../../server/sandbox/slack';
import type { ApiCall, DeliveryRecord } from '../../server/sandbox/slack/types';
import { SANDBOX_ACME, SANDBOX_ALICE } from '../../test/helpers/processes';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'app-url': { type: 'string' },
    'events-url': { type: 'string' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    'signing-secret': { type: 'string' },
    // Taken and ignored: the harness passes it for tests that inject faults; the bench injects none.
    'test-controls': { type: 'boolean' },
  },
});

export type BenchLog = {
  /** chat.postMessage calls Slack accepted: each line of the text and when the sandbox received the call (ms since the epoch). */
  posts: { text: string; at: number }[];
  /** Event deliveries answered: how long from sending the request to the app's answer, and whether it was a 2xx. */
  events: { ms: number; ok: boolean }[];
};

const appUrl = (values['app-url'] ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
const app = express();
let log: BenchLog = { posts: [], events: [] };
/** Web API calls by method since the last read of /bench/calls. */
let calls: Record<string, number> = {};
app.get('/bench/calls', (_req, res) => {
  res.json(calls);
  calls = {};
});
let router: express.Router | null = null;
app.get('/bench/log', (_req, res) => {
  const taken = log;
  log = { posts: [], events: [] };
  res.json(taken);
});
let posting: SlackSandbox | null = null;
app.post('/bench/post', express.json({ limit: '10mb' }), async (req, res) => {
  const body = req.body as { channel: string; threadTs: string; texts: string[] };
  try {
    if (!posting) throw new Error('the sandbox is not ready');
    for (const text of body.texts) {
      await posting.postAsUser({ teamId: SANDBOX_ACME, userId: SANDBOX_ALICE, channelId: body.channel, threadTs: body.threadTs, text });
    }
    res.json({ ok: true });
  } catch (error) {
    res.status(500).json({ ok: false, error: String(error) });
  }
});
const server = app.listen(Number(values.port ?? 0), '127.0.0.1', () => {
  const address = server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const sandbox = createSlackSandbox({
    baseUrl,
    app: {
      clientId: values['client-id'] ?? 'sandbox-client-id',
      clientSecret: values['client-secret'] ?? 'sandbox-client-secret',
      signingSecret: values['signing-secret'] ?? 'sandbox-signing-secret',
      eventsUrl: values['events-url'] ?? `${appUrl}/slack/events`,
      interactivityUrl: `${appUrl}/slack/events`,
      commandsUrl: `${appUrl}/slack/events`,
    },
    rateLimits: 'off',
  });
  const { state } = sandbox;
  const logCall = state.logCall.bind(state);
  state.logCall = (call: ApiCall) => {
    calls[call.method] = (calls[call.method] ?? 0) + 1;
    // Visitor lines waiting for the same thread go out as one post, a line each: each line is timed.
    if (call.method === 'chat.postMessage' && call.ok && typeof call.args.text === 'string') {
      for (const line of call.args.text.split('\n')) log.posts.push({ text: line, at: call.at });
    }
    logCall(call);
  };
  const logDelivery = state.logDelivery.bind(state);
  state.logDelivery = (record: DeliveryRecord) => {
    // Logged once the delivery is over; a first attempt answered at once is the whole delivery.
    const first = record.attempts[0];
    if (record.kind === 'event' && first && record.attempts.length === 1) log.events.push({ ms: Date.now() - first.at, ok: record.ok });
    logDelivery(record);
  };
  posting = sandbox;
  router = sandbox.router;
  console.log(`Slack sandbox on ${baseUrl}/`);
  const stop = () => {
    void sandbox.close().then(() => server.close(() => process.exit(0)));
    server.closeAllConnections();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
});
app.use((req, res, next) => (router ? router(req, res, next) : next()));
