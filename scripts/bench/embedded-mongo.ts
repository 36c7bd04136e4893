/**
 * Benchmark of the embedded MongoDB server on this machine, with durable storage in a temporary dbpath:
 *   npx tsx scripts/bench/embedded-mongo.ts [--store-only] [--cpu-prof DIR]
 *
 * The store's own figures come first, with the server in a child process as `npm run db` runs it in a deployment:
 * inserts/s and indexed findOne/s through the raw driver with 16 operations in flight, and through mongoose one
 * awaited call at a time, each with the CPU time per operation split into the client (this process) and the
 * server (read from /proc). Rates depend on what else runs on the machine; the server's CPU µs per operation
 * much less, so those are the goals that matter most. A single awaited mongoose call is dominated by mongoose
 * and the driver in the client, so its rate is the application's figure, not the store's.
 * Then: journal appends alone, bulk inserts, an indexed count over 100,000 documents and the start-up time on a
 * ~100 MB data set (after a clean stop, and after a crash with the journal to replay).
 * `--store-only` prints the first rows only; `--cpu-prof DIR` writes the server's V8 CPU profile there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient } from 'mongodb';
import mongoose, { Schema } from 'mongoose';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../server/embedded-mongo';
import { LOCK_FILE, openStorage } from '../../server/embedded-mongo/storage';
import { startDatabase } from './database';

const SINGLE_INSERTS = 3_000;
const JOURNAL_APPENDS = 3_000;
const FINDS = 5_000;
const FLIGHT_INSERTS = 10_000;
const FLIGHT_FINDS = 30_000;
const BULK_DOCS = 100_000;
const BULK_BATCH = 1_000;
const ACCOUNTS = 100;
/** Requests in flight at once for the raw driver rows. */
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
  /** CPU time per operation, what the machine's load inflates least ("client + server" for a child server). */
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

/**
 * Runs `count` operations, `inFlight` at a time (each of `inFlight` workers awaits one after another); their rate
 * and the CPU time each took, split into this process (the client) and the server's process.
 */
async function measureSplit(
  count: number,
  serverPid: number,
  inFlight: number,
  op: (i: number) => Promise<unknown>,
): Promise<{ result: string; cpu: string; serverMicros: number }> {
  const serverBefore = processCpuMicros(serverPid);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await op(next++);
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = (performance.now() - started) / 1000;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = processCpuMicros(serverPid);
  const clientMicros = Math.round((client.user + client.system) / count);
  const serverMicros =
    serverBefore === undefined || serverAfter === undefined ? Number.NaN : Math.round((serverAfter - serverBefore) / count);
  return {
    result: `${Math.round(count / seconds).toLocaleString('en-US')} /s`,
    cpu: `${clientMicros} + ${Number.isNaN(serverMicros) ? '?' : serverMicros} µs`,
    serverMicros,
  };
}

/** A server CPU goal and whether the measurement meets it, for the goal column. */
function cpuGoal(serverMicros: number, goal: number): string {
  return `server ≤ ${goal} µs${Number.isNaN(serverMicros) ? '' : serverMicros <= goal ? ' (met)' : ' (NOT met)'}`;
}

/** The store's figures: the server in its own process, through the raw driver (16 in flight) and mongoose (one at a time). */
async function storeRows(cpuProfDir?: string): Promise<void> {
  const server = await startDatabase('store', { nodeArgs: cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(cpuProfDir)] : [] });
  try {
    const client = await MongoClient.connect(server.uri, { maxPoolSize: CONCURRENT, minPoolSize: CONCURRENT });
    const raw = client.db('bench').collection<{ email: string; accountId: string; name: string; bio: string }>('rawusers');
    await raw.createIndex({ email: 1 }, { unique: true });
    await raw.createIndex({ accountId: 1 });
    const doc = (prefix: string, i: number) => ({
      email: `${prefix}${i}@bench.io`,
      accountId: `acct${i % ACCOUNTS}`,
      name: `User ${i}`,
      bio: '',
    });
    await Promise.all(Array.from({ length: 1000 }, (_, i) => raw.insertOne(doc('warm', i))));
    for (let i = 0; i < 1000; i++) await raw.findOne({ email: `warm${i}@bench.io` });

    const rawInserts = await measureSplit(FLIGHT_INSERTS, server.pid, CONCURRENT, (i) => raw.insertOne(doc('flight', i)));
    rows.push({
      metric: `raw driver, ${CONCURRENT} in flight: insertOne`,
      ...rawInserts,
      goal: `≥ 8,000 /s; ${cpuGoal(rawInserts.serverMicros, 150)}`,
    });
    const rawFinds = await measureSplit(FLIGHT_FINDS, server.pid, CONCURRENT, (i) =>
      raw.findOne({ email: `flight${(i * 7919) % FLIGHT_INSERTS}@bench.io` }),
    );
    rows.push({
      metric: `raw driver, ${CONCURRENT} in flight: indexed findOne`,
      ...rawFinds,
      goal: `≥ 15,000 /s; ${cpuGoal(rawFinds.serverMicros, 60)}`,
    });
    await client.close();

    const conn = await mongoose.createConnection(server.uri, { dbName: 'bench' }).asPromise();
    const User = conn.model<BenchUser>('User', userSchema);
    await User.init();
    for (let i = 0; i < 500; i++) await User.create({ email: `warm${i}@bench.io`, accountId: 'warm', name: `Warm ${i}` });
    const inserts = await measureSplit(SINGLE_INSERTS, server.pid, 1, (i) =>
      User.create({ email: `single${i}@bench.io`, accountId: `acct${i % ACCOUNTS}`, name: `Single ${i}` }),
    );
    rows.push({ metric: 'mongoose, one at a time: User.create', ...inserts, goal: cpuGoal(inserts.serverMicros, 150) });
    const email = (i: number): string => `single${(i * 7919) % SINGLE_INSERTS}@bench.io`;
    const finds = await measureSplit(FINDS, server.pid, 1, (i) => User.findOne({ email: email(i) }));
    rows.push({ metric: 'mongoose, one at a time: indexed findOne (hydrated)', ...finds, goal: cpuGoal(finds.serverMicros, 60) });
    const leanFinds = await measureSplit(FINDS, server.pid, 1, (i) => User.findOne({ email: email(i) }).lean());
    rows.push({ metric: 'mongoose, one at a time: indexed findOne (.lean())', ...leanFinds, goal: cpuGoal(leanFinds.serverMicros, 60) });
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
  const args = process.argv.slice(2);
  const storeOnly = args.includes('--store-only');
  const profIndex = args.indexOf('--cpu-prof');
  const cpuProfDir = profIndex >= 0 ? args[profIndex + 1] : undefined;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-db-'));
  try {
    await storeRows(cpuProfDir);
    if (!storeOnly) await otherRows(root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  printRows();
}

/** Journal, bulk, count and start-up rows, with the server in this process. */
async function otherRows(root: string): Promise<void> {
  const dbpath = path.join(root, 'db');
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
}

function printRows(): void {
  const header: Row = { metric: 'metric', result: 'result', cpu: 'CPU/op', goal: 'goal' };
  const width = (key: keyof Row) => Math.max(header[key].length, ...rows.map((r) => r[key].length));
  const [w1, w2, w3, w4] = [width('metric'), width('result'), width('cpu'), width('goal')];
  const line = (r: Row) => `${r.metric.padEnd(w1)}  ${r.result.padStart(w2)}  ${r.cpu.padStart(w3)}  ${r.goal.padEnd(w4)}`;
  const machine = `Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}`;
  console.log(`\nEmbedded MongoDB, durable dbpath; mongoose ${mongoose.version}; ${machine}`);
  console.log(line(header));
  console.log(`${'-'.repeat(w1)}  ${'-'.repeat(w2)}  ${'-'.repeat(w3)}  ${'-'.repeat(w4)}`);
  for (const row of rows) console.log(line(row));
  console.log('CPU/op "a + b": a in the benchmark (the driver, and mongoose where named), b in the database process.');
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
