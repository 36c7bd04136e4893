import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { WebClient } from '@slack/web-api';
import { expect } from 'chai';

const root = path.resolve(__dirname, '..', '..', '..');

describe('npm run sandbox:slack (the sandbox as its own process)', function () {
  this.timeout(60_000);
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((ok) => child?.once('exit', ok));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('prints the API and authorize URLs and answers Web API calls there', async () => {
    child = spawn(
      path.join(root, 'node_modules', '.bin', 'tsx'),
      ['scripts/sandbox-slack.ts', '--port', '0', '--client-id', 'cid', '--client-secret', 'csecret', '--app-url', 'http://127.0.0.1:9'],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    const apiUrl = await new Promise<string>((resolve, reject) => {
      child?.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /SLACK_API_URL=(\S+)/.exec(out);
        if (m && /SLACK_OAUTH_URL=\S+/.test(out)) resolve(m[1]);
      });
      child?.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
    expect(out).to.match(/SLACK_OAUTH_URL=http:\/\/127\.0\.0\.1:\d+\/oauth\/v2\/authorize/);
    const err = await new WebClient(undefined, { slackApiUrl: apiUrl, retryConfig: { retries: 0 } }).auth
      .test()
      .catch((e: { data: { error: string } }) => e.data);
    expect(err.error).to.equal('not_authed');
    const page = await fetch(apiUrl.replace(/api\/$/, ''));
    expect(await page.text()).to.contain('Slack sandbox');
  });
});
