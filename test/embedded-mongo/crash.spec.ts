import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { type Collection, MongoClient } from 'mongodb';
import { tsEntry } from '../helpers/processes';

/** A written event, or (with `value` only) one writer's counter. */
interface EventDoc {
  _id: string;
  round?: number;
  writer?: number;
  i?: number;
  payload?: string;
  value?: number;
}

const ROOT = path.resolve(__dirname, '../..');
// node itself running the CLI (with tsx as a loader, or its JavaScript built for `npm test`), not the tsx launcher:
// SIGKILL must hit the server, not a parent that would leave it running.
const [, CLI_ARGS] = tsEntry('server/embedded-mongo/cli.ts');
const WRITERS = 6;
const ROUNDS = 5;

interface Server {
  child: ChildProcessWithoutNullStreams;
  uri: string;
  output: string[];
  exited: Promise<number | null>;
}

/**
 * How the server is started: as our child; as our child leading its own process group; or leading its own
 * group as the child of a shell that can be stopped, so that once killed it stays an unreaped zombie.
 */
type Launch = 'child' | 'group' | 'under-shell';

/** Starts the CLI on a free port; resolves once it prints its URI. */
function startServer(dbpath: string, extraArgs: string[] = [], launch: Launch = 'child'): Promise<Server> {
  const args = [...CLI_ARGS, '--port', '0', '--host', '127.0.0.1', '--dbpath', dbpath, ...extraArgs];
  const child =
    launch === 'under-shell'
      ? spawn('sh', ['-c', 'setsid "$@" & wait', 'sh', process.execPath, ...args], { cwd: ROOT })
      : spawn(process.execPath, args, { cwd: ROOT, detached: launch === 'group' });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        output.push(line);
        const match = /listening on (mongodb:\/\/\S+)/.exec(line);
        if (match) resolve({ child, uri: match[1], output, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${output.join('\n')}`)));
  });
}

/** What the clients know for certain: writes the server acknowledged. */
interface Acknowledged {
  inserted: Set<string>;
  /** Deletes sent: one in flight at the kill may or may not have happened. */
  deleting: Set<string>;
  deleted: Set<string>;
  /** Per counter document: $inc acknowledged (in memory, j: false), covered by a later durable write, and sent. */
  counters: Map<string, { acked: number; sent: number; covered: number }>;
}

async function writeUntilKilled(events: Collection<EventDoc>, round: number, writer: number, ack: Acknowledged): Promise<void> {
  const counterId = `counter-${writer}`;
  const counter = ack.counters.get(counterId) ?? { acked: 0, sent: 0, covered: 0 };
  ack.counters.set(counterId, counter);
  try {
    for (let i = 0; ; i++) {
      const id = `r${round}-w${writer}-${i}`;
      await events.insertOne({ _id: id, round, writer, i, payload: 'p'.repeat(500 + (i % 7) * 100) });
      ack.inserted.add(id);
      // The increments are acknowledged before the journal has them (j: false); the journal keeps writes in order,
      // so this durable insert, acknowledged after them, makes them durable too.
      counter.covered = counter.acked;
      if (i % 5 === 4) {
        counter.sent++;
        await events.updateOne({ _id: counterId }, { $inc: { value: 1 } }, { upsert: true, writeConcern: { j: false } });
        counter.acked++;
      }
      if (i % 10 === 9) {
        const victim = `r${round}-w${writer}-${i - 9}`;
        ack.deleting.add(victim);
        await events.deleteOne({ _id: victim });
        ack.deleted.add(victim);
      }
    }
  } catch {
    // The server was killed: whatever was not acknowledged may or may not have been kept.
  }
}

async function checkEverything(uri: string, ack: Acknowledged): Promise<void> {
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    const events = client.db('crashtest').collection<EventDoc>('events');
    const all = await events.find({}).toArray();
    expect(await events.countDocuments({})).to.equal(all.length);
    const present = new Map(all.map((d) => [String(d._id), d]));
    const missing = [...ack.inserted].filter((id) => !ack.deleting.has(id) && !present.has(id));
    expect(missing, 'acknowledged inserts missing after the crash').to.deep.equal([]);
    const resurrected = [...ack.deleted].filter((id) => present.has(id));
    expect(resurrected, 'acknowledged deletes undone by the crash').to.deep.equal([]);
    for (const [id, counter] of ack.counters) {
      const value = Number(present.get(id)?.value ?? 0);
      expect(value, `${id} after ${counter.covered} increments covered by a durable write`)
        .to.be.at.least(counter.covered)
        .and.at.most(counter.sent);
      // From here on the stored value is what later increments build on.
      counter.acked = value;
      counter.sent = value;
      counter.covered = value;
    }
  } finally {
    await client.close();
  }
}

/** The pid the lock file names: the server itself, whichever way it was launched. */
function lockOwner(dbpath: string): number {
  return (JSON.parse(fs.readFileSync(path.join(dbpath, 'mongod.lock'), 'utf8')) as { pid: number }).pid;
}

/** The state letter of /proc/<pid>/stat (R, S, Z…), or undefined once the process is gone. */
function procState(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

async function waitUntil(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('embedded MongoDB crash recovery', function () {
  this.timeout(180_000);
  const dbpath = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-crash-'));
  const snapshotTemp = path.join(dbpath, 'snapshot.bson.tmp');
  let server: Server | undefined;

  after(() => {
    server?.child.kill('SIGKILL');
    fs.rmSync(dbpath, { recursive: true, force: true });
  });

  it('keeps every acknowledged write (a j: false one once a later durable write is acknowledged) when the server is killed with SIGKILL in the middle of writes and compactions', async () => {
    const ack: Acknowledged = { inserted: new Set(), deleting: new Set(), deleted: new Set(), counters: new Map() };
    const logs: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // A small compaction threshold makes background snapshots run while the clients write.
      server = await startServer(dbpath, ['--compact-bytes', String(256 * 1024)]);
      await checkEverything(server.uri, ack);
      const client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 10_000, maxPoolSize: WRITERS });
      const events = client.db('crashtest').collection<EventDoc>('events');
      const writers = Array.from({ length: WRITERS }, (_, w) => writeUntilKilled(events, round, w, ack));
      const before = ack.inserted.size;
      let writing = true;
      void Promise.all(writers).then(() => (writing = false));
      while (writing && ack.inserted.size < before + 300 + round * 150) await new Promise((r) => setTimeout(r, 20));
      // Odd rounds kill the server while it writes a snapshot (its temporary file exists only meanwhile).
      const duringCompaction = round % 2 === 1;
      while (writing && duringCompaction && !fs.existsSync(snapshotTemp)) await new Promise((r) => setTimeout(r, 1));
      expect(writing, `the writers stopped early:\n${server.output.join('\n')}`).to.equal(true);
      server.child.kill('SIGKILL');
      expect(await server.exited).to.equal(null);
      await Promise.all(writers);
      await client.close(true);
      logs.push(...server.output);
    }

    server = await startServer(dbpath);
    await checkEverything(server.uri, ack);
    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);
    server = undefined;
    expect(fs.existsSync(path.join(dbpath, 'mongod.lock')), 'lock file left after a clean stop').to.equal(false);
    expect(ack.inserted.size).to.be.greaterThan(ROUNDS * 300);
    expect(
      logs.some((l) => /compacted \d+ documents/.test(l)),
      'no compaction ran during the rounds',
    ).to.equal(true);
  });

  it('restarts at once after its process group is killed, 10 times, also while the killed server is an unreaped zombie', async () => {
    const restartPath = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-restart-'));
    const shells: Server[] = [];
    try {
      let launch: Launch = 'group';
      server = await startServer(restartPath, [], launch);
      for (let round = 0; round < 10; round++) {
        const client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 10_000 });
        await client.db('restart').collection<{ _id: number }>('rounds').insertOne({ _id: round });
        const pid = lockOwner(restartPath);
        if (launch === 'under-shell') {
          // The parent shell is stopped, so nothing reaps the server once it is killed.
          shells.push(server);
          server.child.kill('SIGSTOP');
        }
        process.kill(-pid, 'SIGKILL');
        if (launch === 'under-shell') await waitUntil(`process ${pid} is a zombie`, () => procState(pid) === 'Z');
        const killed = server;
        // Even rounds restart at once, still as the child of a stopped shell; odd rounds as our own child.
        launch = round % 2 === 0 ? 'under-shell' : 'group';
        server = await startServer(restartPath, [], launch).catch((err: unknown) => {
          throw new Error(`restart ${round + 1} refused: ${String(err)}\nthe killed server said:\n${killed.output.join('\n')}`);
        });
        await client.close(true);
        const check = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 10_000 });
        const rounds = await check.db('restart').collection<{ _id: number }>('rounds').find({}).toArray();
        expect(rounds.map((r) => r._id)).to.deep.equal(Array.from({ length: round + 1 }, (_, i) => i));
        await check.close();
      }
      process.kill(-lockOwner(restartPath), 'SIGKILL');
      server = undefined;
    } finally {
      for (const shell of shells) shell.child.kill('SIGKILL');
      fs.rmSync(restartPath, { recursive: true, force: true });
    }
  });

  it('refuses a second server on the same dbpath, naming the first, and stops the first cleanly on SIGINT', async () => {
    server = await startServer(dbpath);
    let error: unknown;
    await startServer(dbpath).catch((err: unknown) => (error = err));
    const refusal = `exited \\(1\\)[^]*dbpath ${dbpath} is already in use by process ${server.child.pid} `;
    expect(String(error)).to.match(new RegExp(refusal));
    server.child.kill('SIGINT');
    expect(await server.exited).to.equal(0);
    server = undefined;
    expect(fs.existsSync(path.join(dbpath, 'mongod.lock'))).to.equal(false);
  });
});
