/**
 * Point-in-time reads: `readConcern: { level: 'snapshot' }` on a find, as a driver's snapshot session sends it
 * (`client.startSession({ snapshot: true })`). The first such read takes a snapshot of every collection of every
 * database in one synchronous step (arrays of references: documents are immutable once stored, so nothing is
 * copied) and answers with its `atClusterTime`; later reads naming that time read the same snapshot. This is what
 * makes a dump (`npm run db:dump`) consistent across collections while writes go on.
 *
 * Reads of a snapshot scan its documents (no index); a snapshot unused for 10 minutes is dropped, as mongod drops
 * history older than its window (a read naming it then fails with SnapshotTooOld).
 */
import { type Document, Timestamp } from 'bson';
import type { Collection, SortSpec } from './collection';
import { CommandError, ErrorCodes } from './errors';
import { type LazyQuery, matches, sortDocs } from './query';
import { isPlainObject } from './values';

/** How long an unused snapshot is kept (mongod keeps 5 minutes of history; a dump may pause longer between reads). */
export const SNAPSHOT_IDLE_TIMEOUT_MS = 10 * 60 * 1000;
/** At most this many snapshots are held; the least recently used goes first. */
const MAX_SNAPSHOTS = 16;

interface HeldSnapshot {
  time: Timestamp;
  /** Documents of each namespace (`db.collection`) at the snapshot's time. */
  docs: Map<string, Document[]>;
  lastUsed: number;
}

export class SnapshotStore {
  private readonly held = new Map<string, HeldSnapshot>();
  private increment = 0;

  get size(): number {
    return this.held.size;
  }

  /** Takes a snapshot of every collection now (one tick: no write can land in the middle). */
  take(dbs: ReadonlyMap<string, ReadonlyMap<string, Collection>>, now = Date.now()): HeldSnapshot {
    const docs = new Map<string, Document[]>();
    for (const [db, colls] of dbs) {
      for (const [name, coll] of colls) docs.set(`${db}.${name}`, Array.from(coll.docs.values()));
    }
    this.increment = (this.increment + 1) % 0x1_0000_0000;
    const time = new Timestamp({ t: Math.floor(now / 1000), i: this.increment });
    const snapshot: HeldSnapshot = { time, docs, lastUsed: now };
    this.held.set(time.toString(), snapshot);
    if (this.held.size > MAX_SNAPSHOTS) {
      const oldest = [...this.held.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
      this.held.delete(oldest[0]);
    }
    return snapshot;
  }

  at(time: Timestamp, now = Date.now()): HeldSnapshot | undefined {
    const snapshot = this.held.get(time.toString());
    if (snapshot) snapshot.lastUsed = now;
    return snapshot;
  }

  reap(now = Date.now()): void {
    for (const [key, snapshot] of this.held) if (now - snapshot.lastUsed > SNAPSHOT_IDLE_TIMEOUT_MS) this.held.delete(key);
  }

  clear(): void {
    this.held.clear();
  }
}

/**
 * The snapshot a command's readConcern asks for: a new one when it names no time, the held one when it names
 * `atClusterTime`; undefined when the command does not ask for a snapshot read.
 */
export function snapshotOf(
  cmd: Document,
  snapshots: SnapshotStore,
  dbs: ReadonlyMap<string, ReadonlyMap<string, Collection>>,
): HeldSnapshot | undefined {
  const readConcern = cmd.readConcern;
  if (!isPlainObject(readConcern) || readConcern.level !== 'snapshot') return undefined;
  const at = readConcern.atClusterTime;
  if (at === undefined) return snapshots.take(dbs);
  if (!(at instanceof Timestamp)) {
    throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'readConcern.atClusterTime' is the wrong type, expected type 'timestamp'");
  }
  const held = snapshots.at(at);
  if (!held) {
    throw new CommandError(
      ErrorCodes.SnapshotTooOld,
      `Read timestamp Timestamp(${at.high}, ${at.low}) is older than the oldest available timestamp`,
    );
  }
  return held;
}

/** The documents of `ns` in the snapshot that match, in insertion order (reversed for `$natural: -1`), then sorted. */
export function selectFromSnapshot(
  snapshot: HeldSnapshot,
  ns: string,
  filter: Document,
  lazy: LazyQuery,
  sort: SortSpec | undefined,
  reverse: boolean,
): Document[] {
  const all = snapshot.docs.get(ns) ?? [];
  let docs: Document[];
  if (Object.keys(filter).length === 0) {
    docs = reverse ? all.slice() : all;
  } else {
    const query = lazy();
    docs = all.filter((doc) => matches(query, doc));
  }
  if (reverse) docs.reverse();
  if (sort) docs = sortDocs(docs, sort);
  return docs;
}
