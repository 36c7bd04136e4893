// `npm run sandbox:stripe`: runs the Stripe sandbox alone, as its own process, so Parley (or any app using the
// stripe client) can point STRIPE_API_URL at it. Its hosted pages and operator page are at the root.
//   --port 12111 (or SANDBOX_STRIPE_PORT; 0 picks a free port)   where to listen
//   --host 127.0.0.1
//   --app-url http://localhost:3000        the app's base URL; webhooks go to <app-url>/v1/billing/stripe-webhook
//   --webhook-url                          another webhook endpoint
//   --secret-key                           (or STRIPE_SECRET_KEY) the only key accepted; unset: any sk_test_… key
//   --webhook-secret                       (or STRIPE_WEBHOOK_SECRET) signs webhooks; generated and printed when not given,
//                                          as `stripe listen` prints its signing secret
//   --data-file file.json                  keep the state across restarts
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { STRIPE_WEBHOOK_PATH, stripeSeed } from '../server/billing/sandbox';
import { createStripeSandbox } from '../server/sandbox/stripe';
import { PLAN_CATALOG } from '../server/shared/plans';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'app-url': { type: 'string' },
    'webhook-url': { type: 'string' },
    'secret-key': { type: 'string' },
    'webhook-secret': { type: 'string' },
    'data-file': { type: 'string' },
  },
});

const env = process.env;
const port = Number(values.port ?? env.SANDBOX_STRIPE_PORT ?? 12111);
const host = values.host ?? env.SANDBOX_STRIPE_HOST ?? '127.0.0.1';
const appUrl = (values['app-url'] ?? env.APP_URL ?? env.PUBLIC_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const secretKey = values['secret-key'] ?? env.STRIPE_SECRET_KEY;
const webhookSecret = values['webhook-secret'] ?? env.STRIPE_WEBHOOK_SECRET ?? `whsec_${randomBytes(24).toString('base64url')}`;
const webhookUrl = values['webhook-url'] ?? `${appUrl}${STRIPE_WEBHOOK_PATH}`;

const sandbox = createStripeSandbox({
  secretKey,
  webhook: { url: webhookUrl, secret: webhookSecret },
  seed: stripeSeed(PLAN_CATALOG),
  dataFile: values['data-file'] ? path.resolve(values['data-file']) : undefined,
});

sandbox.listen(port, host).then(
  (url) => {
    console.log(`Stripe sandbox on ${url}/ (operator page)`);
    console.log(`  STRIPE_API_URL=${url}`);
    console.log(secretKey ? '  accepting the secret key it was given' : '  accepting any STRIPE_SECRET_KEY=sk_test_…');
    console.log(`  STRIPE_WEBHOOK_SECRET=${webhookSecret}`);
    console.log(`  delivering webhooks to ${webhookUrl}`);
    const stop = () => {
      void sandbox.close().then(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  },
  (error: unknown) => {
    console.error('The Stripe sandbox failed to start:', error);
    process.exit(1);
  },
);
