import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { clientFor, WEBHOOK_SECRET } from './helpers';

const root = path.resolve(__dirname, '..', '..', '..');

describe('npm run sandbox:stripe (the sandbox as its own process)', function () {
  this.timeout(60_000);
  let child: ChildProcess | undefined;
  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((ok) => child?.once('exit', ok));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('prints STRIPE_API_URL, where the official client finds the plans and the operator page is at the root', async () => {
    child = spawn(
      path.join(root, 'node_modules', '.bin', 'tsx'),
      ['scripts/sandbox-stripe.ts', '--port', '0', '--app-url', 'http://127.0.0.1:9', '--webhook-secret', WEBHOOK_SECRET],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    const apiUrl = await new Promise<string>((resolve, reject) => {
      child?.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /STRIPE_API_URL=(\S+)/.exec(out);
        if (m?.[1] && out.includes('delivering webhooks')) resolve(m[1]);
      });
      child?.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
    expect(out).to.contain(`STRIPE_WEBHOOK_SECRET=${WEBHOOK_SECRET}`);
    expect(out).to.contain('http://127.0.0.1:9/v1/billing/stripe-webhook');
    const prices = await clientFor(apiUrl, 'sk_test_anything').prices.list({ lookup_keys: ['parley_business_monthly'] });
    expect(prices.data[0]?.unit_amount).to.equal(19900);
    const page = await fetch(`${apiUrl}/`);
    expect(await page.text()).to.contain('Stripe sandbox');
  });
});
