/**
 * Durable storage of the embedded MongoDB server.
 *
 * Durability policy — acknowledged means on disk:
 * - Every command's writes become one journal record, appended to the current segment (`journal.<seq>`) of the
 *   dbpath. `append` resolves only after the write returned from a file opened with O_DSYNC, i.e. after the
 *   bytes reached stable storage; the engine acknowledges only then.
 * - Group commit: the appends of one event-loop turn (all requests read in that turn) are written together at
 *   its end as one frame [length, CRC-32, records] with one O_DSYNC write on the thread pool; appends arriving
 *   during that write form the next frame. Reads are never held up by a write in flight.
 * - A frame is all-or-nothing. A torn or corrupt frame at the end of the last segment was never acknowledged and
 *   is cut off at start-up; damage anywhere else stops start-up with an error rather than lose acknowledged data.
 * - Compaction: when the journal passes a threshold (64 MB by default) and on close, the live image is captured
 *   synchronously together with a journal rotation, written in chunks to `snapshot.bson.tmp`, fsynced, renamed to
 *   `snapshot.bson` and the directory fsynced; only then are the older segments deleted. A crash at any point
 *   leaves either the old snapshot with all its segments or the new one (older segments are ignored and removed).
 * - `mongod.lock` keeps a second process from opening the same dbpath.
 *
 * Rules for the engine:
 * - Apply a command's writes to the in-memory state before the `append` call or in the same synchronous tick,
 *   never after an `await`: a background snapshot captures the image at a tick boundary and replaces every record
 *   queued until then.
 * - Never mutate a stored document or an `image()` array in place after handing it out; `image()` is synchronous.
 * - Replay is idempotent and literal: an insert into an unknown collection creates it with options {} and no
 *   index specs; the `_id_` index is stored only if the engine sends it as a createIndex op.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BSON } from 'bson';
import type { FileSystem } from './files';
import { asWriteOp, ImageBuilder } from './image';
import { JournalWriter, listSegments, StorageCorruptError, scanSegment, segmentName } from './journal';
import { acquireLock, type DbLock } from './lock';
import { captureImage, readSnapshot, SNAPSHOT_TEMP_FILE, writeSnapshot } from './snapshot';
import type { DataImage, Storage, WriteOp } from './types';

export type { FileSystem } from './files';
export { StorageCorruptError } from './journal';
export { DbPathLockedError, LOCK_FILE } from './lock';
export { SNAPSHOT_FILE } from './snapshot';
export type { CollectionImage, DataImage, IndexSpec, Storage, WriteOp } from './types';

export interface StorageOptions {
  /** Journal bytes since the last snapshot that start a background compaction. */
  compactBytes?: number;
  /** How often a store whose disk refused a write checks whether it takes writes again. */
  retryWritesMs?: number;
  /** The file system the journal writes through (tests give one that fails like a full disk). */
  fs?: FileSystem;
}

const DEFAULT_COMPACT_BYTES = 64 * 1024 * 1024;
const COMPACTION_RETRY_MS = 10_000;

const DEFAULT_RETRY_WRITES_MS = 5_000;
/** A refused write is logged at most this often while the disk stays full. */
const WRITE_PROBLEM_LOG_MS = 60_000;

const defaults: Required<Omit<StorageOptions, 'fs'>> = { compactBytes: DEFAULT_COMPACT_BYTES, retryWritesMs: DEFAULT_RETRY_WRITES_MS };

/** Changes the options of storages opened afterwards without explicit ones (the CLI's `--compact-bytes`). */
export function configureStorage(options: StorageOptions): void {
  if (options.compactBytes !== undefined) defaults.compactBytes = options.compactBytes;
}

/** Opens the storage of a dbpath; undefined keeps everything in memory only. */
export function openStorage(dbpath: string | undefined, log?: (msg: string) => void, options: StorageOptions = {}): Storage {
  if (dbpath === undefined) return new MemoryOnlyStorage();
  return new DiskStorage(path.resolve(dbpath), log ?? (() => undefined), {
    compactBytes: options.compactBytes ?? defaults.compactBytes,
    retryWritesMs: options.retryWritesMs ?? defaults.retryWritesMs,
    fs: options.fs ?? fs,
  });
}

class MemoryOnlyStorage implements Storage {
  async load(): Promise<DataImage> {
    return new Map();
  }

  attach(): void {}

  writeProblem(): null {
    return null;
  }

  append(): Promise<void> {
    return Promise.resolve();
  }

  async settled(): Promise<void> {}

  async close(): Promise<void> {}
}

/** One append: [u32 LE length][each op as a BSON document]. */
function encodeRecord(ops: WriteOp[]): Buffer {
  const parts = ops.map((op) => BSON.serialize(op));
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const record = Buffer.allocUnsafe(4 + length);
  record.writeUInt32LE(length, 0);
  let pos = 4;
  for (const part of parts) {
    record.set(part, pos);
    pos += part.byteLength;
  }
  return record;
}

/** Applies every op of a frame's records; returns how many records it held. */
export function replayFrame(file: string, payload: Buffer, builder: ImageBuilder): number {
  let records = 0;
  for (let pos = 0; pos < payload.length; records++) {
    if (pos + 4 > payload.length) throw new StorageCorruptError(file, 'truncated record inside an intact frame');
    const end = pos + 4 + payload.readUInt32LE(pos);
    if (end > payload.length) throw new StorageCorruptError(file, 'record longer than its frame');
    const ops: WriteOp[] = [];
    for (let off = pos + 4; off < end; ) {
      const size = payload.readInt32LE(off);
      if (size < 5 || off + size > end) throw new StorageCorruptError(file, 'bad operation length');
      try {
        ops.push(asWriteOp(BSON.deserialize(payload.subarray(off, off + size))));
      } catch (err) {
        throw new StorageCorruptError(file, `undecodable operation: ${(err as Error).message}`);
      }
      off += size;
    }
    // Decoded before applying, so a record is applied whole or not at all.
    for (const op of ops) builder.apply(op);
    pos = end;
  }
  return records;
}

type State = 'new' | 'loading' | 'open' | 'closing' | 'closed';

class DiskStorage implements Storage {
  private state: State = 'new';
  private lock: DbLock | undefined;
  private journal: JournalWriter | undefined;
  private image: (() => DataImage) | undefined;
  /** Journal bytes not covered by the snapshot (nor by one being written). */
  private journalBytes = 0;
  /** Something was appended since the last snapshot capture. */
  private dirty = false;
  private compaction: Promise<void> | undefined;
  private compactionCheckQueued = false;
  private compactionRetryAt = 0;
  private closing: Promise<void> | undefined;
  private reset: ((durable: DataImage) => void) | undefined;
  /** Set when the disk refused a journal write; writes are refused until it takes them again. */
  private problem: { code: string; message: string } | undefined;
  private problemLoggedAt = 0;
  private recovering: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dir: string,
    private readonly log: (msg: string) => void,
    private readonly options: Required<StorageOptions>,
  ) {}

  async load(): Promise<DataImage> {
    if (this.state !== 'new') throw new Error('embedded MongoDB storage: load() may be called once');
    this.state = 'loading';
    await fs.promises.mkdir(this.dir, { recursive: true });
    this.lock = await acquireLock(this.dir);
    try {
      const image = await this.recover();
      this.state = 'open';
      return image;
    } catch (err) {
      this.lock.release();
      this.state = 'closed';
      throw err;
    }
  }

  private async recover(): Promise<DataImage> {
    const started = performance.now();
    await fs.promises.rm(path.join(this.dir, SNAPSHOT_TEMP_FILE), { force: true });
    const disk = await this.readDisk();
    this.journal = this.openJournal(disk.resumeAt, disk.nextSeq);
    this.journalBytes = disk.journalBytes;
    const ms = Math.round(performance.now() - started);
    const snapshotPart = disk.snapshot ? `a ${(disk.snapshot.bytes / 1048576).toFixed(1)} MB snapshot` : 'no snapshot';
    this.log(
      `embedded MongoDB: loaded ${disk.documents} documents from ${snapshotPart} and ${disk.records} journal records ` +
        `in ${ms} ms (${this.dir})`,
    );
    return disk.image;
  }

  private openJournal(resumeAt: { seq: number; end: number } | undefined, nextSeq: number): JournalWriter {
    const journal = resumeAt
      ? JournalWriter.resume(this.dir, resumeAt.seq, resumeAt.end, this.options.fs)
      : JournalWriter.create(this.dir, nextSeq, this.options.fs);
    journal.onFailure = (err) => this.writeFailed(err);
    return journal;
  }

  /** What is durable on disk: the snapshot and every intact journal frame after it (a torn last write cut off). */
  private async readDisk() {
    const builder = new ImageBuilder();
    const snapshot = await readSnapshot(this.dir, builder);
    const first = snapshot?.nextSegment ?? 1;

    const all = await listSegments(this.dir);
    // Older segments are already in the snapshot: a compaction died after its snapshot became durable.
    for (const seq of all.filter((s) => s < first)) {
      await fs.promises.rm(path.join(this.dir, segmentName(seq)), { force: true });
    }
    const live = all.filter((s) => s >= first);
    live.forEach((seq, i) => {
      if (seq !== first + i) {
        throw new StorageCorruptError(path.join(this.dir, segmentName(first + i)), 'journal segment missing');
      }
    });

    let records = 0;
    let journalBytes = 0;
    let resumeAt: { seq: number; end: number } | undefined;
    for (const [i, seq] of live.entries()) {
      const file = path.join(this.dir, segmentName(seq));
      const isLast = i === live.length - 1;
      const scan = scanSegment(file, await fs.promises.readFile(file), isLast);
      for (const frame of scan.frames) records += replayFrame(file, frame, builder);
      journalBytes += scan.end;
      if (scan.torn) {
        this.log(`embedded MongoDB: dropped the torn last journal write in ${file} (${scan.torn}); it was never acknowledged`);
      }
      if (isLast && !scan.unborn) resumeAt = { seq, end: scan.end };
      if (isLast && scan.unborn) await fs.promises.rm(file);
    }
    return {
      image: builder.toImage(),
      documents: builder.documentCount,
      snapshot,
      records,
      journalBytes,
      resumeAt,
      nextSeq: live.at(-1) ?? first,
    };
  }

  attach(image: () => DataImage, reset?: (durable: DataImage) => void): void {
    this.image = image;
    this.reset = reset;
  }

  writeProblem(): { code: string; message: string } | null {
    return this.problem ?? null;
  }

  /**
   * The disk refused a journal write (ENOSPC, EIO): the writes of that frame and every one queued after it were
   * refused to their clients, but the engine had already applied them. Writes are refused from now on; the live
   * state goes back to what is durable (read again from disk), and the store checks every retryWritesMs whether
   * the disk takes writes again, then carries on by itself.
   */
  private writeFailed(err: Error): void {
    if (this.problem) return;
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    this.problem = {
      code,
      message:
        code === 'ENOSPC'
          ? 'the embedded database has no space left on its disk; writes resume by themselves once there is room'
          : `the embedded database cannot write to its disk (${err.message}); writes resume by themselves once it can`,
    };
    this.logProblem();
    this.recovering = this.undoUnjournaled().catch((error: unknown) => {
      this.log(`embedded MongoDB: could not read back the durable state after a failed write: ${(error as Error).message}`);
    });
  }

  private logProblem(): void {
    if (!this.problem || Date.now() - this.problemLoggedAt < WRITE_PROBLEM_LOG_MS) return;
    this.problemLoggedAt = Date.now();
    this.log(`embedded MongoDB: writes refused: ${this.problem.message} (${this.dir})`);
  }

  private async undoUnjournaled(): Promise<void> {
    // Let the failed flush settle (every queued append rejected) before closing its files.
    await this.journal?.close().catch(() => undefined);
    if (this.compaction) await this.compaction;
    const disk = await this.readDisk();
    this.reset?.(disk.image);
    this.journalBytes = disk.journalBytes;
    this.scheduleWriteRetry(disk.resumeAt, disk.nextSeq);
  }

  private scheduleWriteRetry(resumeAt: { seq: number; end: number } | undefined, nextSeq: number): void {
    if (this.state !== 'open') return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      let journal: JournalWriter | undefined;
      try {
        journal = this.openJournal(resumeAt, nextSeq);
        journal.probe();
      } catch {
        if (journal) void journal.close().catch(() => undefined);
        this.logProblem();
        this.scheduleWriteRetry(resumeAt, nextSeq);
        return;
      }
      this.journal = journal;
      this.problem = undefined;
      this.problemLoggedAt = 0;
      this.log(`embedded MongoDB: the disk takes writes again; writes resumed (${this.dir})`);
    }, this.options.retryWritesMs);
    this.retryTimer.unref();
  }

  append(ops: WriteOp[]): Promise<void> {
    if (this.state !== 'open' && this.state !== 'closing') {
      return Promise.reject(new Error(`embedded MongoDB storage is ${this.state}, cannot write`));
    }
    if (this.problem && ops.length > 0) {
      this.logProblem();
      return Promise.reject(Object.assign(new Error(this.problem.message), { code: this.problem.code }));
    }
    if (ops.length === 0) return Promise.resolve();
    let record: Buffer;
    try {
      record = encodeRecord(ops);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    this.journalBytes += record.length;
    this.dirty = true;
    const written = this.journal!.append(record);
    this.queueCompactionCheck();
    return written;
  }

  private queueCompactionCheck(): void {
    if (this.compactionCheckQueued || this.journalBytes < this.options.compactBytes) return;
    this.compactionCheckQueued = true;
    // At the next tick boundary the engine has applied every write it queued (see the rules above).
    setImmediate(() => {
      this.compactionCheckQueued = false;
      if (
        this.state === 'open' &&
        !this.problem &&
        this.image &&
        !this.compaction &&
        this.journalBytes >= this.options.compactBytes &&
        Date.now() >= this.compactionRetryAt
      ) {
        void this.compact();
      }
    });
  }

  /** Captures the live image and rotates the journal in one tick, then writes the snapshot in the background. */
  private compact(): Promise<void> {
    const journal = this.journal!;
    const started = performance.now();
    let captured: ReturnType<typeof captureImage>;
    try {
      captured = captureImage(this.image!());
    } catch (err) {
      this.log(`embedded MongoDB: compaction skipped, the live image could not be read: ${(err as Error).message}`);
      this.compactionRetryAt = Date.now() + COMPACTION_RETRY_MS;
      return Promise.resolve();
    }
    const bytesCovered = this.journalBytes;
    this.journalBytes = 0;
    this.dirty = false;
    const rotation = journal.rotate();
    this.compaction = (async () => {
      try {
        const stats = await writeSnapshot(this.dir, captured, rotation.seq);
        await rotation.done;
        for (const seq of await listSegments(this.dir)) {
          if (seq < rotation.seq) await fs.promises.rm(path.join(this.dir, segmentName(seq)), { force: true });
        }
        const mb = (stats.bytes / 1048576).toFixed(1);
        const ms = Math.round(performance.now() - started);
        this.log(`embedded MongoDB: compacted ${stats.documents} documents into a ${mb} MB snapshot in ${ms} ms`);
      } catch (err) {
        // Nothing is lost: the journal segments stay until a snapshot covering them is durable.
        this.journalBytes += bytesCovered;
        this.dirty = true;
        this.compactionRetryAt = Date.now() + COMPACTION_RETRY_MS;
        this.log(`embedded MongoDB: compaction failed, will retry: ${(err as Error).message}`);
      } finally {
        this.compaction = undefined;
      }
    })();
    return this.compaction;
  }

  async settled(): Promise<void> {
    for (;;) {
      if (this.compactionCheckQueued) await new Promise((resolve) => setImmediate(resolve));
      else if (this.compaction) await this.compaction;
      else return;
    }
  }

  close(): Promise<void> {
    if (this.closing) return this.closing;
    if (this.state === 'new' || this.state === 'closed') {
      this.state = 'closed';
      return Promise.resolve();
    }
    this.closing = (async () => {
      this.state = 'closing';
      clearTimeout(this.retryTimer);
      if (this.recovering) await this.recovering;
      if (this.compaction) await this.compaction;
      if (this.problem) {
        // What is durable is on disk already; the journal stays as it is for the next start.
        this.lock?.release();
        this.state = 'closed';
        return;
      }
      if (this.dirty && this.image) await this.compact();
      await this.journal?.close();
      this.lock?.release();
      this.state = 'closed';
    })();
    return this.closing;
  }
}
