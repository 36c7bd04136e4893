/**
 * `npm run db -- --repair --dbpath DIR`: a dbpath whose snapshot or journal is damaged in its middle (a checksum
 * mismatch, a bad frame) refuses to start. Repair reads every intact frame before and after the damage (a damaged
 * frame whose header still holds is skipped exactly; otherwise reading resumes at the next intact frame), writes
 * what it read as a new snapshot, and moves the damaged files into `DIR/damaged-<time>/` beside it. It reports
 * how much was lost: damaged frames and bytes, and the snapshot's documents it could not read when the snapshot's
 * closing totals survived.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Document } from 'bson';
import { BSON } from 'bson';
import { readFrame } from './frame';
import { fsyncDir } from './fsutil';
import { ImageBuilder } from './image';
import { replayFrame } from './index';
import { listSegments, SEGMENT_MAGIC, segmentName } from './journal';
import { acquireLock } from './lock';
import { captureImage, SNAPSHOT_FILE, SNAPSHOT_TEMP_FILE, writeSnapshot } from './snapshot';
import type { IndexSpec } from './types';

export interface RepairReport {
  dir: string;
  /** Where the damaged originals are now. */
  damagedDir: string;
  collections: number;
  documents: number;
  journalRecords: number;
  damagedFrames: number;
  damagedBytes: number;
  /** Snapshot documents that could not be read (known when the snapshot's closing totals survived). */
  lostSnapshotDocuments: number | null;
  /** Journal segments missing from the sequence: their records are lost. */
  missingSegments: number;
}

const SNAPSHOT_MAGIC = Buffer.from('PRLYSNP1');
const FrameType = { Header: 1, Collection: 2, Documents: 3, End: 4 } as const;
const FRAME_TYPES = new Set<number>(Object.values(FrameType));

type Damage = { frames: number; bytes: number };

/**
 * The position of the next intact frame after damage at `pos`: exactly past the damaged frame when its header
 * still holds (its declared length lands on an intact frame or the end), else the next offset where an intact
 * frame starts. `valid` says what an intact frame's payload must look like there.
 */
function resync(buf: Buffer, pos: number, valid: (payload: Buffer) => boolean): { next: number; exact: boolean } {
  if (pos + 8 <= buf.length) {
    const after = pos + 8 + buf.readUInt32LE(pos);
    if (after <= buf.length) {
      const there = readFrame(buf, after);
      if (there.kind === 'end' || (there.kind === 'frame' && valid(there.payload))) return { next: after, exact: true };
    }
  }
  for (let q = pos + 1; q + 8 <= buf.length; q++) {
    const there = readFrame(buf, q);
    if (there.kind === 'frame' && valid(there.payload)) return { next: q, exact: false };
  }
  return { next: buf.length, exact: false };
}

function decode(payload: Buffer): Document | null {
  try {
    return BSON.deserialize(payload);
  } catch {
    return null;
  }
}

/** Reads what survives of snapshot.bson into the builder; the first journal segment it does not cover. */
function salvageSnapshot(buf: Buffer, builder: ImageBuilder, damage: Damage): { nextSegment: number; lost: number | null } {
  let nextSegment = 1;
  let pos = SNAPSHOT_MAGIC.length;
  if (!buf.subarray(0, SNAPSHOT_MAGIC.length).equals(SNAPSHOT_MAGIC)) {
    damage.frames += 1;
    damage.bytes += SNAPSHOT_MAGIC.length;
  }
  let current: { db: string; coll: string } | undefined;
  let read = 0;
  let totals: number | null = null;
  for (;;) {
    const frame = readFrame(buf, pos);
    if (frame.kind === 'end') break;
    if (frame.kind === 'bad') {
      const { next, exact } = resync(buf, pos, (p) => FRAME_TYPES.has(p[0]));
      damage.frames += 1;
      damage.bytes += next - pos;
      // Documents after a lost collection header would land in the wrong collection: they wait for the next one.
      const lostType = exact && pos + 8 < buf.length ? buf[pos + 8] : undefined;
      if (lostType !== FrameType.Documents) current = undefined;
      pos = next;
      continue;
    }
    pos = frame.next;
    const type = frame.payload[0];
    const body = frame.payload.subarray(1);
    if (type === FrameType.Header) {
      const header = decode(body);
      if (header) nextSegment = Number(header.nextSegment);
    } else if (type === FrameType.Collection) {
      const meta = decode(body);
      if (!meta) continue;
      current = { db: String(meta.db), coll: String(meta.coll) };
      builder.addCollection(current.db, current.coll, (meta.options ?? {}) as Document, (meta.indexes ?? []) as IndexSpec[]);
    } else if (type === FrameType.Documents && current) {
      const docs: Document[] = [];
      for (let off = 0; off + 4 <= body.length; ) {
        const size = body.readInt32LE(off);
        const doc = size >= 5 && off + size <= body.length ? decode(body.subarray(off, off + size)) : null;
        if (!doc) break;
        docs.push(doc);
        off += size;
      }
      builder.addDocuments(current.db, current.coll, docs);
      read += docs.length;
    } else if (type === FrameType.End) {
      const end = decode(body);
      if (end) totals = Number(end.documents);
    }
  }
  return { nextSegment, lost: totals === null ? null : Math.max(0, totals - read) };
}

/** Replays what survives of one journal segment; returns the records it applied. */
function salvageSegment(file: string, buf: Buffer, builder: ImageBuilder, damage: Damage): number {
  if (!buf.subarray(0, SEGMENT_MAGIC.length).equals(SEGMENT_MAGIC)) {
    damage.frames += 1;
    damage.bytes += buf.length;
    return 0;
  }
  let records = 0;
  let pos = SEGMENT_MAGIC.length;
  for (;;) {
    const frame = readFrame(buf, pos);
    if (frame.kind === 'end') return records;
    if (frame.kind === 'bad') {
      const { next } = resync(buf, pos, () => true);
      damage.frames += 1;
      damage.bytes += next - pos;
      pos = next;
      continue;
    }
    pos = frame.next;
    try {
      // A frame whose checksum holds but whose records do not decode is as lost as a damaged one (applied whole or not at all).
      const trial = new ImageBuilder();
      replayFrame(file, frame.payload, trial);
      records += replayFrame(file, frame.payload, builder);
    } catch {
      damage.frames += 1;
      damage.bytes += frame.payload.length + 8;
    }
  }
}

export async function repairDbPath(dbpath: string): Promise<RepairReport> {
  const dir = path.resolve(dbpath);
  const lock = await acquireLock(dir);
  try {
    const damage: Damage = { frames: 0, bytes: 0 };
    const builder = new ImageBuilder();
    const snapshotFile = path.join(dir, SNAPSHOT_FILE);
    const snapshotBuf = fs.existsSync(snapshotFile) ? await fs.promises.readFile(snapshotFile) : null;
    const snapshot = snapshotBuf ? salvageSnapshot(snapshotBuf, builder, damage) : { nextSegment: 1, lost: 0 };
    const segments = (await listSegments(dir)).filter((seq) => seq >= snapshot.nextSegment);
    let journalRecords = 0;
    let missingSegments = 0;
    let expected = snapshot.nextSegment;
    for (const seq of segments) {
      missingSegments += seq - expected;
      expected = seq + 1;
      const file = path.join(dir, segmentName(seq));
      journalRecords += salvageSegment(file, await fs.promises.readFile(file), builder, damage);
    }

    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const damagedDir = path.join(dir, `damaged-${stamp}`);
    const staging = path.join(dir, `repair-${stamp}.tmp`);
    await fs.promises.mkdir(staging);
    const image = builder.toImage();
    await writeSnapshot(staging, captureImage(image), expected);
    // The originals move aside only once the repaired snapshot is durable; then it takes their place.
    await fs.promises.mkdir(damagedDir);
    const originals = (await fs.promises.readdir(dir)).filter(
      (n) => n === SNAPSHOT_FILE || n === SNAPSHOT_TEMP_FILE || /^journal\.\d{12}$/.test(n),
    );
    for (const name of originals) await fs.promises.rename(path.join(dir, name), path.join(damagedDir, name));
    await fsyncDir(damagedDir);
    await fs.promises.rename(path.join(staging, SNAPSHOT_FILE), snapshotFile);
    await fs.promises.rm(staging, { recursive: true, force: true });
    await fsyncDir(dir);

    let collections = 0;
    for (const colls of image.values()) collections += colls.size;
    return {
      dir,
      damagedDir,
      collections,
      documents: builder.documentCount,
      journalRecords,
      damagedFrames: damage.frames,
      damagedBytes: damage.bytes,
      lostSnapshotDocuments: snapshot.lost,
      missingSegments,
    };
  } finally {
    lock.release();
  }
}

/** The report in words, for the command line. */
export function describeRepair(report: RepairReport): string {
  const lost = [
    `${report.damagedFrames} damaged frame${report.damagedFrames === 1 ? '' : 's'} (${report.damagedBytes} bytes) skipped`,
    report.lostSnapshotDocuments === null
      ? "the snapshot's totals were damaged, so how many of its documents were lost is unknown"
      : `${report.lostSnapshotDocuments} snapshot document${report.lostSnapshotDocuments === 1 ? '' : 's'} lost`,
    ...(report.missingSegments > 0 ? [`${report.missingSegments} journal segment(s) missing`] : []),
  ];
  return (
    `Repaired ${report.dir}: kept ${report.documents} documents in ${report.collections} collections ` +
    `(${report.journalRecords} journal records replayed); ${lost.join('; ')}. ` +
    `The damaged files are in ${report.damagedDir}.`
  );
}
