/**
 * `npx tsx scripts/bench/db-dump.ts [--messages 1000000] [--per-conversation 10] [--gzip]`
 *
 * Seeds the embedded store (its own process, as `npm run db` runs it) with that many messages, in conversations of
 * `per-conversation` messages with one visitor for every two conversations, then runs `npm run db:dump` on it as
 * its own process and prints the dump's seconds, documents per second and bytes, and the dump process's resident
 * memory sampled every 50 ms: its peak, and what it was at each quarter of the run (flat memory: the figures
 * stay put whatever the size). Goal on a 2-core machine: 1,000,000 messages in ≤ 60 s, peak RSS ≤ 200 MB.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { type Document, MongoClient, ObjectId } from 'mongodb';
import { startDatabase } from './database';
import { numberArg, positive } from './figures';

const arg = (name: string, fallback: number) => numberArg(name, fallback, positive);
const MESSAGES = arg('messages', 1_000_000);
const PER_CONVERSATION = arg('per-conversation', 10);
const GZIP = process.argv.includes('--gzip');
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** Resident memory of a process, from /proc (Linux), or NaN once it is gone. */
function rssOf(pid: number): number {
  try {
    const found = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return found ? Number(found[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

async function seed(uri: string): Promise<void> {
  const client = await new MongoClient(uri).connect();
  try {
    const db = client.db('parley');
    const accountId = new ObjectId();
    const ceId = new ObjectId();
    const conversations = Math.ceil(MESSAGES / PER_CONVERSATION);
    const started = performance.now();
    let visitorId = new ObjectId();
    let written = 0;
    for (let c = 0; c < conversations; c += 1000) {
      const visitors: Document[] = [];
      const convos: Document[] = [];
      const messages: Document[] = [];
      for (let i = c; i < Math.min(conversations, c + 1000); i++) {
        const at = new Date(Date.now() - (conversations - i) * 60_000);
        if (i % 2 === 0) {
          visitorId = new ObjectId();
          visitors.push({
            _id: visitorId,
            accountId,
            ceId,
            tokenHash: `bench-${i}`,
            name: `Visitor ${i}`,
            email: `v${i}@example.org`,
            location: { country: 'FR', city: 'Lyon' },
            createdAt: at,
            updatedAt: at,
          });
        }
        const conversationId = new ObjectId();
        convos.push({
          _id: conversationId,
          accountId,
          ceId,
          number: i + 1,
          visitorId,
          status: 'ended',
          startedAt: at,
          createdAt: at,
          updatedAt: at,
        });
        for (let m = 0; m < PER_CONVERSATION && written < MESSAGES; m++, written++) {
          messages.push({
            conversationId,
            seq: m + 1,
            kind: 'msg',
            from: m % 2 ? 'operator' : 'visitor',
            text: `Message ${m} of conversation ${i}: do you ship to Lyon, and how long does it take?`,
            html: '',
            files: [],
            createdAt: at,
            updatedAt: at,
          });
        }
      }
      if (visitors.length) await db.collection('visitors').insertMany(visitors, { ordered: false });
      await db.collection('conversations').insertMany(convos, { ordered: false });
      await db.collection('messages').insertMany(messages, { ordered: false });
    }
    await db.collection('messages').createIndex({ conversationId: 1, seq: 1 }, { unique: true });
    await db.collection('conversations').createIndex({ accountId: 1, number: -1 });
    console.log(
      `seeded ${written.toLocaleString('en-US')} messages, ${conversations.toLocaleString('en-US')} conversations in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  // No background snapshots while seeding writes hundreds of MB of journal.
  const db = await startDatabase('dump', { storeArgs: ['--compact-bytes', String(2 ** 40)] });
  const out = mkdtempSync(path.join(tmpdir(), 'parley-bench-dump-'));
  try {
    await seed(db.uri);
    const script = path.resolve(__dirname, '..', 'db-dump.ts');
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', script, '--uri', `${db.uri}/parley`, '--out', out, ...(GZIP ? ['--gzip'] : [])],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const samples: { at: number; rss: number }[] = [];
    const sampler = setInterval(() => {
      const rss = rssOf(child.pid ?? 0);
      if (!Number.isNaN(rss)) samples.push({ at: performance.now() - started, rss });
    }, 50);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`db:dump exited with ${code}`);
    const docs = Number(/, ([\d,]+) documents/.exec(stdout)?.[1]?.replace(/,/g, '') ?? NaN);
    const peak = Math.max(...samples.map((s) => s.rss));
    const quarter = (q: number) => samples[Math.min(samples.length - 1, Math.floor((samples.length * q) / 4))]?.rss ?? Number.NaN;
    console.log(stdout.trim());
    console.log(
      `db:dump of ${MESSAGES.toLocaleString('en-US')} messages${GZIP ? ' (gzip)' : ''}: ${seconds.toFixed(1)} s wall (process start included), ` +
        `${Math.round(docs / seconds).toLocaleString('en-US')} docs/s; goal ≤ 60 s ${seconds <= 60 ? 'ok' : 'OVER'}`,
    );
    console.log(
      `dump process RSS: peak ${mb(peak)}; at 25% ${mb(quarter(1))}, 50% ${mb(quarter(2))}, 75% ${mb(quarter(3))}, end ${mb(quarter(4))} ` +
        `(${samples.length} samples)`,
    );
    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
    await db.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
