/**
 * Journal segments: files `journal.<seq>` of framed records, written with O_DSYNC so a write returning means
 * the bytes are on disk. Writes are grouped: the appends of one event-loop turn, or made while a write is in
 * flight, go into one frame and one write (group commit). Segments are preallocated with zeros so most writes
 * need no metadata update.
 */
import nodeFs from 'node:fs';
import path from 'node:path';
import type { FileSystem } from './files';
import { encodeFrame, FRAME_HEADER_BYTES, readFrame } from './frame';
import { fsyncDirSync } from './fsutil';

export const SEGMENT_MAGIC = Buffer.from('PRLYJNL1');
const PREALLOCATE_BYTES = 4 * 1024 * 1024;
/** A new segment starts smaller: many dbpaths (tests) never write much. */
const INITIAL_SEGMENT_BYTES = 1024 * 1024;
/** Zero filling starts when the data gets this close to the end of the preallocated part. */
const PREALLOCATE_MARGIN_BYTES = 256 * 1024;
/** Writes at least this big append without preallocating: the metadata update is amortised over the batch. */
const LARGE_WRITE_BYTES = 1024 * 1024;
/** Zeros written ahead of the data, shared by every fill (allocating megabytes per fill costs GC time). */
const ZEROS = Buffer.alloc(1024 * 1024);
/** Upper bound of one group-commit frame, so a burst of big batches is not concatenated into one huge buffer. */
const MAX_FRAME_BYTES = 32 * 1024 * 1024;

export class StorageCorruptError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    const dir = path.dirname(file);
    super(
      `embedded MongoDB data file ${file} is damaged (${detail}); refusing to start rather than lose data. ` +
        `To keep every intact record and start again, stop whatever uses ${dir} and run: ` +
        `npm run db -- --repair --dbpath ${dir} (the damaged files are kept beside the repaired ones)`,
    );
    this.name = 'StorageCorruptError';
  }
}

export function segmentName(seq: number): string {
  return `journal.${String(seq).padStart(12, '0')}`;
}

/** Journal segment numbers present in `dir`, ascending. */
export async function listSegments(dir: string): Promise<number[]> {
  const names = await nodeFs.promises.readdir(dir);
  const seqs: number[] = [];
  for (const name of names) {
    const match = /^journal\.(\d{12})$/.exec(name);
    if (match) seqs.push(Number(match[1]));
  }
  return seqs.sort((a, b) => a - b);
}

export interface SegmentScan {
  /** Each intact frame's payload (the records of one group commit), in order. */
  frames: Buffer[];
  /** Offset just after the last good frame. */
  end: number;
  /** Set when a damaged last frame was found (and must be cut off). */
  torn?: string;
  /** The file lacks a complete magic header (it was being created when the process died). */
  unborn: boolean;
}

/**
 * Reads one segment. In the last segment a damaged frame with nothing valid after it is a torn write (never
 * acknowledged: acknowledgement waits for the whole frame to be on disk) and is reported for truncation.
 * Damage anywhere else is corruption of acknowledged data and throws.
 */
export function scanSegment(file: string, buf: Buffer, isLast: boolean): SegmentScan {
  if (buf.length < SEGMENT_MAGIC.length || !buf.subarray(0, SEGMENT_MAGIC.length).equals(SEGMENT_MAGIC)) {
    if (isLast && buf.subarray(0, SEGMENT_MAGIC.length).every((b, i) => b === 0 || b === SEGMENT_MAGIC[i])) {
      return { frames: [], end: 0, unborn: true };
    }
    throw new StorageCorruptError(file, 'not a journal segment');
  }
  const frames: Buffer[] = [];
  let pos = SEGMENT_MAGIC.length;
  for (;;) {
    const frame = readFrame(buf, pos);
    if (frame.kind === 'end') return { frames, end: pos, unborn: false };
    if (frame.kind === 'bad') {
      const detail = `${frame.reason} at offset ${pos}`;
      if (!isLast) throw new StorageCorruptError(file, detail);
      const declared = buf.readUInt32LE(pos);
      const after = pos + FRAME_HEADER_BYTES + declared;
      if (pos + FRAME_HEADER_BYTES <= buf.length && after < buf.length && readFrame(buf, after).kind === 'frame') {
        throw new StorageCorruptError(file, `${detail}, followed by intact records`);
      }
      return { frames, end: pos, torn: detail, unborn: false };
    }
    frames.push(frame.payload);
    pos = frame.next;
  }
}

interface PendingWrite {
  kind: 'write';
  record: Buffer;
  resolve: () => void;
  reject: (err: Error) => void;
}

interface PendingRotation {
  kind: 'rotate';
  seq: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

interface OpenSegment {
  seq: number;
  /** Opened with O_DSYNC: a write returning means the bytes are on stable storage. */
  dataFd: number;
  /** Plain descriptor for zero filling ahead of the data. */
  fillFd: number;
  /** Where the next frame goes. */
  pos: number;
  /** Bytes of the file that exist (zero filled beyond the data). */
  allocated: number;
  /** Background syncs of zero fills still running on fillFd (closing it waits for them). */
  fillSyncs: number;
  closed: boolean;
}

function openSegmentFds(fs: FileSystem, file: string, create: boolean): { dataFd: number; fillFd: number } {
  const c = fs.constants;
  const dataFd = fs.openSync(file, c.O_RDWR | (c.O_DSYNC ?? 0) | (create ? c.O_CREAT | c.O_EXCL : 0), 0o644);
  try {
    return { dataFd, fillFd: fs.openSync(file, c.O_RDWR) };
  } catch (err) {
    fs.closeSync(dataFd);
    throw err;
  }
}

function closeSegment(fs: FileSystem, segment: OpenSegment): void {
  segment.closed = true;
  fs.closeSync(segment.dataFd);
  if (segment.fillSyncs === 0) fs.closeSync(segment.fillFd);
}

function writeAllSync(fs: FileSystem, fd: number, data: Buffer, position: number): void {
  for (let done = 0; done < data.length; ) done += fs.writeSync(fd, data, done, data.length - done, position + done);
}

/**
 * The writer: appends queue up; a flush starts at the end of the event-loop turn (setImmediate) and writes all
 * queued records as one frame with one O_DSYNC write on the thread pool, so the event loop keeps serving reads
 * meanwhile. Appends arriving during a write form the next frame (group commit).
 */
export class JournalWriter {
  private readonly queue: Array<PendingWrite | PendingRotation> = [];
  private flushing: Promise<void> | undefined;
  private scheduled = false;
  private failure: Error | undefined;
  private nextSeq: number;

  /** Told once, synchronously, when a write fails: from then on every append is refused. */
  onFailure: ((err: Error) => void) | undefined;

  private constructor(
    private readonly dir: string,
    private segment: OpenSegment,
    private readonly fs: FileSystem,
  ) {
    this.nextSeq = segment.seq + 1;
  }

  /** Creates segment `seq` (magic plus preallocated zeros), durable in the directory. */
  static create(dir: string, seq: number, fs: FileSystem = nodeFs): JournalWriter {
    return new JournalWriter(dir, createSegment(fs, dir, seq), fs);
  }

  /** Continues an existing segment whose valid data ends at `end` (anything after it is cut off first). */
  static resume(dir: string, seq: number, end: number, fs: FileSystem = nodeFs): JournalWriter {
    const file = path.join(dir, segmentName(seq));
    const { dataFd, fillFd } = openSegmentFds(fs, file, false);
    try {
      const size = fs.fstatSync(dataFd).size;
      if (size > end && !isZeroFilled(fs, fillFd, end, size)) {
        fs.ftruncateSync(fillFd, end);
        fs.fsyncSync(fillFd);
      }
      const allocated = Math.max(end, fs.fstatSync(dataFd).size);
      return new JournalWriter(dir, { seq, dataFd, fillFd, pos: end, allocated, fillSyncs: 0, closed: false }, fs);
    } catch (err) {
      fs.closeSync(dataFd);
      fs.closeSync(fillFd);
      throw err;
    }
  }

  /** Queues one record; resolves once it is on disk. */
  append(record: Buffer): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ kind: 'write', record, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Starts a new segment: records queued before this call go to the current one, later ones to the new one.
   * Returns the new segment number at once and a promise settled when the old segment is complete and closed.
   */
  rotate(): { seq: number; done: Promise<void> } {
    const seq = this.nextSeq++;
    const done = new Promise<void>((resolve, reject) => {
      this.queue.push({ kind: 'rotate', seq, resolve, reject });
    });
    this.schedule();
    return { seq, done };
  }

  /** Waits until everything queued so far is on disk (or the journal failed). */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.flushing) {
      if (!this.flushing) this.startFlush();
      await this.flushing;
      if (this.failure) return;
    }
  }

  async close(): Promise<void> {
    await this.drain();
    // The zeros past the data are only there to speed up writes: a closed segment does not need them.
    if (!this.failure && this.segment.allocated > this.segment.pos) {
      this.fs.ftruncateSync(this.segment.dataFd, this.segment.pos);
      this.fs.fdatasyncSync(this.segment.dataFd);
    }
    closeSegment(this.fs, this.segment);
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    // Collect every append of this event-loop turn before writing.
    setImmediate(() => {
      this.scheduled = false;
      if (!this.flushing) this.startFlush();
    });
  }

  private startFlush(): void {
    this.flushing = this.flushLoop().finally(() => {
      this.flushing = undefined;
      // An append can land after the loop saw an empty queue but before this callback ran.
      if (this.queue.length > 0 && !this.failure) this.schedule();
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.queue.length > 0 && !this.failure) {
      const head = this.queue[0];
      if (head.kind === 'rotate') {
        this.queue.shift();
        try {
          const next = createSegment(this.fs, this.dir, head.seq);
          const old = this.segment;
          this.segment = next;
          closeSegment(this.fs, old);
          head.resolve();
        } catch (err) {
          head.reject(err as Error);
          this.fail(err as Error);
        }
        continue;
      }
      const batch: PendingWrite[] = [];
      let bytes = 0;
      while (this.queue.length > 0) {
        const item = this.queue[0];
        if (item.kind !== 'write' || (batch.length > 0 && bytes + item.record.length > MAX_FRAME_BYTES)) break;
        this.queue.shift();
        batch.push(item);
        bytes += item.record.length;
      }
      try {
        await this.writeFrame(encodeFrame(batch.map((p) => p.record)));
      } catch (err) {
        for (const p of batch) p.reject(err as Error);
        this.fail(err as Error);
        continue;
      }
      for (const p of batch) p.resolve();
    }
  }

  private async writeFrame(frame: Buffer): Promise<void> {
    const seg = this.segment;
    const end = seg.pos + frame.length;
    if (end + PREALLOCATE_MARGIN_BYTES > seg.allocated && frame.length < LARGE_WRITE_BYTES) this.preallocate(end);
    await writeAt(this.fs, seg.dataFd, frame, seg.pos);
    // Platforms without O_DSYNC (Windows) get the same guarantee from an explicit sync.
    if (this.fs.constants.O_DSYNC === undefined) {
      await new Promise<void>((resolve, reject) => this.fs.fdatasync(seg.dataFd, (err) => (err ? reject(err) : resolve())));
    }
    seg.pos = end;
    seg.allocated = Math.max(seg.allocated, end);
  }

  /**
   * Zero fills ahead of the data through the page cache (a synchronous memory copy) and syncs that in the
   * background, so later O_DSYNC writes land in allocated blocks and need no metadata update. Data is written
   * only after the fill returned and only by this serial loop, so the fill can never overwrite data.
   */
  private preallocate(end: number): void {
    const seg = this.segment;
    const target = Math.max(seg.allocated, end) + PREALLOCATE_BYTES;
    try {
      for (let pos = seg.allocated; pos < target; pos += ZEROS.length) {
        writeAllSync(this.fs, seg.fillFd, ZEROS.subarray(0, Math.min(ZEROS.length, target - pos)), pos);
      }
    } catch {
      // No room for zeros ahead (a full disk): the data write itself says whether it still fits.
      seg.allocated = Math.max(seg.allocated, this.fs.fstatSync(seg.fillFd).size);
      return;
    }
    seg.allocated = target;
    seg.fillSyncs++;
    this.fs.fdatasync(seg.fillFd, () => {
      // A failed sync of zeros loses nothing: data writes are O_DSYNC on their own.
      if (--seg.fillSyncs === 0 && seg.closed) this.fs.close(seg.fillFd, () => undefined);
    });
  }

  /**
   * Whether the disk takes writes again: zeros written and synced just past the data (where nothing has been
   * written yet), then cut back. Throws what the file system says when it still cannot.
   */
  probe(bytes = PREALLOCATE_MARGIN_BYTES): void {
    const seg = this.segment;
    writeAllSync(this.fs, seg.fillFd, ZEROS.subarray(0, Math.min(bytes, ZEROS.length)), seg.pos);
    this.fs.fdatasyncSync(seg.fillFd);
  }

  /** After a failed write the order of what is on disk is unknown: refuse everything that follows. */
  private fail(err: Error): void {
    this.failure = Object.assign(new Error(`embedded MongoDB journal write failed: ${err.message}`), {
      code: (err as NodeJS.ErrnoException).code,
    });
    for (const item of this.queue.splice(0)) item.reject(this.failure);
    this.onFailure?.(this.failure);
  }
}

function writeAt(fs: FileSystem, fd: number, data: Buffer, position: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (offset: number): void => {
      fs.write(fd, data, offset, data.length - offset, position + offset, (err, written) => {
        if (err) return reject(err);
        if (offset + written < data.length) return step(offset + written);
        resolve();
      });
    };
    step(0);
  });
}

function isZeroFilled(fs: FileSystem, fd: number, from: number, to: number): boolean {
  const chunk = Buffer.alloc(Math.min(1024 * 1024, to - from));
  for (let pos = from; pos < to; pos += chunk.length) {
    const n = fs.readSync(fd, chunk, 0, Math.min(chunk.length, to - pos), pos);
    for (let i = 0; i < n; i++) if (chunk[i] !== 0) return false;
  }
  return true;
}

/** A new segment: magic and zeros, on disk and in the directory before any record goes into it. */
function createSegment(fs: FileSystem, dir: string, seq: number): OpenSegment {
  const file = path.join(dir, segmentName(seq));
  const { dataFd, fillFd } = openSegmentFds(fs, file, true);
  try {
    const initial = Buffer.alloc(INITIAL_SEGMENT_BYTES);
    SEGMENT_MAGIC.copy(initial, 0);
    writeAllSync(fs, fillFd, initial, 0);
    fs.fdatasyncSync(fillFd);
    fsyncDirSync(dir);
  } catch (err) {
    fs.closeSync(dataFd);
    fs.closeSync(fillFd);
    throw err;
  }
  return { seq, dataFd, fillFd, pos: SEGMENT_MAGIC.length, allocated: INITIAL_SEGMENT_BYTES, fillSyncs: 0, closed: false };
}
