/**
 * `npm start` as a developer runs it: a signal to the npm process (Ctrl-C, `kill <pid>`, a process manager)
 * must reach the server, so both ports are free again soon after.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '..', '..');
/** The promise: both ports free within 5 seconds of the signal. */
const FREE_WITHIN_MS = 5_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves once the child printed `text` (it has started), rejects when it exits first. */
function waitForOutput(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before starting:\n${seen}`)));
  });
}

async function startAndSignal(signal: 'SIGTERM' | 'SIGINT'): Promise<{ ports: number[]; freeAfterMs: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-npm-start-'));
  const ports = [await freePort(), await freePort()];
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(ports[0]), DEMO_PORT: String(ports[1]), DATA_DIR: dataDir, NODE_ENV: 'development' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so whatever a failed stop leaves behind is ended after the test.
    detached: true,
  });
  try {
    await waitForOutput(npm, 'Parley is running');
    for (const port of ports) expect(await accepts(port), `port ${port} is served`).to.equal(true);
    const signalledAt = Date.now();
    npm.kill(signal);
    while (Date.now() - signalledAt < FREE_WITHIN_MS) {
      const open = await Promise.all(ports.map(accepts));
      if (!open.some(Boolean)) return { ports, freeAfterMs: Date.now() - signalledAt };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { ports, freeAfterMs: Infinity };
  } finally {
    if (npm.pid) {
      try {
        process.kill(-npm.pid, 'SIGKILL');
      } catch {
        // The whole group has already exited.
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('npm start and stop signals', function () {
  this.timeout(120_000);

  it('frees the console and demo ports within 5 seconds of a SIGTERM to the npm process', async () => {
    const { freeAfterMs } = await startAndSignal('SIGTERM');
    expect(freeAfterMs).to.be.below(FREE_WITHIN_MS);
  });

  it('frees both ports within 5 seconds of a SIGINT (Ctrl-C) to the npm process', async () => {
    const { freeAfterMs } = await startAndSignal('SIGINT');
    expect(freeAfterMs).to.be.below(FREE_WITHIN_MS);
  });
});
