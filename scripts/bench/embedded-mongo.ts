/**
 * Benchmark of the embedded MongoDB server through mongoose, on this machine, with durable storage in a
 * temporary dbpath:
 *   npx tsx scripts/bench/embedded-mongo.ts
 * Prints single inserts/s, indexed findOne/s, an indexed countDocuments over 100,000 documents and the start-up
 * time on a ~100 MB data set (after a clean stop, and after a crash with the journal to replay). Rates depend on
 * what else runs on the machine, so it also prints the CPU time per operation and the disk's sync latency.
 * The first rows run the server inside the benchmark's process (client and server share one thread); the rows
 * marked "separate process" run it as `npm run db` does in a deployment, a child process with its own thread, and
 * split the CPU time into client (mongoose) and server.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import mongoose, { Schema } from 'mongoose';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../server/embedded-mongo';
import { LOCK_FILE, openStorage } from '../../server/embedded-mongo/storage';

const SINGLE_INSERTS = 5_000;
const JOURNAL_APPENDS = 3_000;
const FINDS = 10_000;
const BULK_DOCS = 100_000;
const BULK_BATCH = 1_000;
const ACCOUNTS = 100;
/** Requests in flight at once for the concurrent insert row. */
const CONCURRENT = 16;
const COUNT_RUNS = 20;
/** Makes each bulk document about 1 KB, so 100,000 of them are about 100 MB. */
const BIO = 'Parley benchmark filler text. '.repeat(31);

interface BenchUser {
  email: string;
  accountId: string;
  name: string;
  bio: string;
}

const userSchema = new Schema<BenchUser>(
  {
    email: { type: String, required: true, unique: true },
    accountId: { type: String, required: true, index: true },
    name: { type: String, required: true },
    bio: { type: String, default: '' },
  },
  { timestamps: true },
);

interface Row {
  metric: string;
  result: string;
  /** CPU time of this process (client and server together) per operation: what the machine's load cannot inflate. */
  cpu: string;
  goal: string;
}

const rows: Row[] = [];
const serverLog: string[] = [];

/** Runs `count` awaited operations one after another; their rate and the CPU time each took. */
async function measure(count: number, op: (i: number) => Promise<unknown>): Promise<{ result: string; cpu: string }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) await op(i);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    result: `${Math.round(count / seconds).toLocaleString('en-US')} /s`,
    cpu: `${Math.round((cpu.user + cpu.system) / count)} µs`,
  };
}

/** Latency of the disk for what the journal does per acknowledged write: a small O_DSYNC write. */
function diskSyncMicros(dir: string): number {
  const file = path.join(dir, 'disk-probe');
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_DSYNC);
  const record = Buffer.alloc(200, 1);
  fs.writeSync(fd, Buffer.alloc(1024 * 1024), 0, 1024 * 1024, 0);
  const started = performance.now();
  for (let i = 0; i < 500; i++) fs.writeSync(fd, record, 0, record.length, i * record.length);
  const micros = ((performance.now() - started) / 500) * 1000;
  fs.closeSync(fd);
  fs.rmSync(file);
  return micros;
}

const ROOT = path.resolve(__dirname, '../..');

/** CPU seconds a process has used so far, from /proc (Linux); undefined where that is not readable. */
function processCpuMicros(pid: number): number | undefined {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, counted after the command name, which may itself contain spaces.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticksPerSecond = 100;
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
  } catch {
    return undefined;
  }
}

interface ChildServer {
  uri: string;
  pid: number;
  stop: () => Promise<void>;
}

/** The CLI in a child process (node with tsx as a loader, so signals reach the server itself). */
function startChild(dbpath: string): Promise<ChildServer> {
  const args = ['--import', 'tsx', path.join(ROOT, 'server/embedded-mongo/cli.ts'), '--port', '0', '--host', '127.0.0.1', '--dbpath', dbpath];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening on (mongodb:\/\/\S+)/.exec(output);
      if (match) resolve({ uri: match[1], pid: child.pid!, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => reject(new Error(`database process exited before listening:\n${output}`)));
  });
}

/** Like `measure`, with the CPU time split into this process (the client) and the server's process. */
async function measureSplit(count: number, serverPid: number, op: (i: number) => Promise<unknown>): Promise<{ result: string; cpu: string }> {
  const serverBefore = processCpuMicros(serverPid);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) await op(i);
  const seconds = (performance.now() - started) / 1000;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = processCpuMicros(serverPid);
  const clientMicros = Math.round((client.user + client.system) / count);
  const server = serverBefore === undefined || serverAfter === undefined ? '?' : `${Math.round((serverAfter - serverBefore) / count)}`;
  return {
    result: `${Math.round(count / seconds).toLocaleString('en-US')} /s`,
    cpu: `${clientMicros} + ${server} µs`,
  };
}

/** Single inserts and findOne with the database in its own process, as a deployment runs it. */
async function separateProcessRows(dbpath: string): Promise<void> {
  const server = await startChild(dbpath);
  try {
    const conn = await mongoose.createConnection(server.uri, { dbName: 'bench' }).asPromise();
    const User = conn.model<BenchUser>('User', userSchema);
    await User.init();
    for (let i = 0; i < 500; i++) await User.create({ email: `warm${i}@bench.io`, accountId: 'warm', name: `Warm ${i}` });
    const inserts = await measureSplit(SINGLE_INSERTS, server.pid, (i) =>
      User.create({ email: `single${i}@bench.io`, accountId: `acct${i % ACCOUNTS}`, name: `Single ${i}` }),
    );
    rows.push({ metric: 'separate process: single inserts, each awaited (User.create)', ...inserts, goal: '≥ 5,000 /s' });
    const email = (i: number): string => `single${(i * 7919) % SINGLE_INSERTS}@bench.io`;
    const finds = await measureSplit(FINDS, server.pid, (i) => User.findOne({ email: email(i) }));
    rows.push({ metric: 'separate process: indexed findOne (hydrated documents)', ...finds, goal: '≥ 10,000 /s' });
    const leanFinds = await measureSplit(FINDS, server.pid, (i) => User.findOne({ email: email(i) }).lean());
    rows.push({ metric: 'separate process: indexed findOne (.lean())', ...leanFinds, goal: '≥ 10,000 /s' });
    // Several requests in flight, as a server with many users sends them: group commit shares one disk write.
    const inFlight = await measureSplit(SINGLE_INSERTS, server.pid, async (i) => {
      if (i % CONCURRENT !== 0) return;
      await Promise.all(
        Array.from({ length: Math.min(CONCURRENT, SINGLE_INSERTS - i) }, (_, k) =>
          User.create({ email: `flight${i + k}@bench.io`, accountId: `acct${(i + k) % ACCOUNTS}`, name: `Flight ${i + k}` }),
        ),
      );
    });
    rows.push({ metric: `separate process: inserts (User.create), ${CONCURRENT} in flight`, ...inFlight, goal: '' });
    await conn.close();
  } finally {
    await server.stop();
  }
}

async function start(dbpath: string): Promise<EmbeddedMongo> {
  return startEmbeddedMongo({ port: 0, dbpath, log: (msg) => serverLog.push(msg) });
}

async function connect(server: EmbeddedMongo): Promise<{ conn: mongoose.Connection; User: mongoose.Model<BenchUser> }> {
  const conn = await mongoose.createConnection(server.uri, { dbName: 'bench' }).asPromise();
  const User = conn.model<BenchUser>('User', userSchema);
  await User.init();
  return { conn, User };
}

/** Start-up until the first indexed query is answered. */
async function timedStart(dbpath: string, email: string): Promise<{ ms: number; server: EmbeddedMongo }> {
  const started = performance.now();
  const server = await start(dbpath);
  const conn = await mongoose.createConnection(server.uri, { dbName: 'bench' }).asPromise();
  const found = await conn.model<BenchUser>('User', userSchema).findOne({ email }).lean();
  const ms = performance.now() - started;
  await conn.close();
  if (!found) throw new Error(`start-up lost ${email}`);
  return { ms, server };
}

function dirMegabytes(dir: string): number {
  let bytes = 0;
  for (const name of fs.readdirSync(dir)) bytes += fs.statSync(path.join(dir, name)).size;
  return bytes / 1048576;
}

/** The dbpath as a process killed now would leave it, once no snapshot is being written. */
async function crashCopy(dir: string, into: string): Promise<void> {
  while (fs.existsSync(path.join(dir, 'snapshot.bson.tmp'))) await new Promise((r) => setTimeout(r, 50));
  fs.mkdirSync(into, { recursive: true });
  for (const name of fs.readdirSync(dir)) {
    if (name !== LOCK_FILE) fs.copyFileSync(path.join(dir, name), path.join(into, name));
  }
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-db-'));
  const dbpath = path.join(root, 'db');
  try {
    const server = await start(dbpath);
    const { conn, User } = await connect(server);

    rows.push({
      metric: 'disk: one small O_DSYNC write (the journal cost per commit)',
      result: `${Math.round(diskSyncMicros(root))} µs`,
      cpu: '',
      goal: '',
    });
    const journal = openStorage(path.join(root, 'journal-only'));
    await journal.load();
    const appends = await measure(JOURNAL_APPENDS, (i) =>
      journal.append([{ op: 'insert', db: 'bench', coll: 'users', doc: { _id: i, email: `j${i}@bench.io`, n: i } }]),
    );
    await journal.close();
    rows.push({ metric: 'storage alone: single journal appends, each awaited', ...appends, goal: '' });

    for (let i = 0; i < 500; i++) await User.create({ email: `warm${i}@bench.io`, accountId: 'warm', name: `Warm ${i}` });
    const inserts = await measure(SINGLE_INSERTS, (i) =>
      User.create({ email: `single${i}@bench.io`, accountId: `acct${i % ACCOUNTS}`, name: `Single ${i}` }),
    );
    rows.push({ metric: 'single inserts, each awaited (User.create)', ...inserts, goal: '≥ 5,000 /s' });

    const email = (i: number): string => `single${(i * 7919) % SINGLE_INSERTS}@bench.io`;
    const finds = await measure(FINDS, (i) => User.findOne({ email: email(i) }));
    rows.push({ metric: 'indexed findOne (hydrated documents)', ...finds, goal: '≥ 10,000 /s' });
    const leanFinds = await measure(FINDS, (i) => User.findOne({ email: email(i) }).lean());
    rows.push({ metric: 'indexed findOne (.lean())', ...leanFinds, goal: '≥ 10,000 /s' });
    await separateProcessRows(path.join(root, 'separate'));

    await User.deleteMany({});
    let t = performance.now();
    for (let start = 0; start < BULK_DOCS; start += BULK_BATCH) {
      const batch = Array.from({ length: BULK_BATCH }, (_, k) => {
        const i = start + k;
        return { email: `bulk${i}@bench.io`, accountId: `acct${i % ACCOUNTS}`, name: `Bulk ${i}`, bio: `${i} ${BIO}` };
      });
      await User.insertMany(batch, { lean: true });
    }
    rows.push({
      metric: `insertMany of ${BULK_DOCS.toLocaleString('en-US')} ~1 KB documents, batches of ${BULK_BATCH}`,
      result: `${Math.round(BULK_DOCS / ((performance.now() - t) / 1000)).toLocaleString('en-US')} /s`,
      cpu: '',
      goal: '',
    });

    const timings: number[] = [];
    let counted = 0;
    for (let run = 0; run < COUNT_RUNS; run++) {
      t = performance.now();
      counted = await User.countDocuments({ accountId: `acct${run % ACCOUNTS}` });
      timings.push(performance.now() - t);
    }
    if (counted !== BULK_DOCS / ACCOUNTS) throw new Error(`countDocuments gave ${counted}, expected ${BULK_DOCS / ACCOUNTS}`);
    timings.sort((a, b) => a - b);
    rows.push({
      metric: `countDocuments, indexed equality, ${BULK_DOCS.toLocaleString('en-US')} docs (${counted} match)`,
      result: `${timings[Math.floor(COUNT_RUNS / 2)].toFixed(1)} ms median, ${timings[COUNT_RUNS - 1].toFixed(1)} ms max`,
      cpu: '',
      goal: '< 50 ms',
    });

    const crashed = path.join(root, 'crashed');
    await crashCopy(dbpath, crashed);
    await conn.close();
    t = performance.now();
    await server.stop();
    rows.push({ metric: 'clean stop (final snapshot)', result: `${Math.round(performance.now() - t)} ms`, cpu: '', goal: '' });

    const probe = `bulk${BULK_DOCS - 1}@bench.io`;
    const clean = await timedStart(dbpath, probe);
    rows.push({
      metric: `start-up after a clean stop, ${dirMegabytes(dbpath).toFixed(0)} MB dbpath`,
      result: `${Math.round(clean.ms)} ms`,
      cpu: '',
      goal: '< 5,000 ms',
    });
    await clean.server.stop();

    const afterCrash = await timedStart(crashed, probe);
    rows.push({
      metric: `start-up after a crash (snapshot + journal), ${dirMegabytes(crashed).toFixed(0)} MB dbpath`,
      result: `${Math.round(afterCrash.ms)} ms`,
      cpu: '',
      goal: '< 5,000 ms',
    });
    await afterCrash.server.stop();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }

  const header: Row = { metric: 'metric', result: 'result', cpu: 'CPU/op', goal: 'goal' };
  const width = (key: keyof Row) => Math.max(header[key].length, ...rows.map((r) => r[key].length));
  const [w1, w2, w3, w4] = [width('metric'), width('result'), width('cpu'), width('goal')];
  const line = (r: Row) => `${r.metric.padEnd(w1)}  ${r.result.padStart(w2)}  ${r.cpu.padStart(w3)}  ${r.goal.padEnd(w4)}`;
  const machine = `Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}`;
  console.log(`\nEmbedded MongoDB through mongoose ${mongoose.version}, durable dbpath; ${machine}`);
  console.log(line(header));
  console.log(`${'-'.repeat(w1)}  ${'-'.repeat(w2)}  ${'-'.repeat(w3)}  ${'-'.repeat(w4)}`);
  for (const row of rows) console.log(line(row));
  console.log('CPU/op "a + b": a in the benchmark (mongoose and the driver), b in the database process.');
  const loads = serverLog.filter((l) => /loaded \d+ documents/.test(l));
  if (loads.length) console.log(`\nserver: ${loads.join('\nserver: ')}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
