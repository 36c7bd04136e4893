/**
 * Snapshots: the whole data set in one file, `snapshot.bson`, replaced atomically (temp file, fsync, rename,
 * directory fsync). It records the first journal segment that is not in it (`nextSegment`).
 * Layout: magic, then frames whose payload starts with a type byte: header, then per collection a metadata frame
 * followed by document frames (BSON documents back to back), then an end frame with the totals.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BSON, type Document } from 'bson';
import { encodeFrame, readFrame } from './frame';
import { fsyncDir } from './fsutil';
import type { ImageBuilder } from './image';
import { StorageCorruptError } from './journal';
import type { DataImage, IndexSpec } from './types';

export const SNAPSHOT_FILE = 'snapshot.bson';
export const SNAPSHOT_TEMP_FILE = 'snapshot.bson.tmp';
const SNAPSHOT_MAGIC = Buffer.from('PRLYSNP1');
const FORMAT_VERSION = 1;
const DOCS_FRAME_BYTES = 1024 * 1024;
const WRITE_BYTES = 4 * 1024 * 1024;

const FrameType = { Header: 1, Collection: 2, Documents: 3, End: 4 } as const;

export interface CapturedCollection {
  db: string;
  coll: string;
  /** Options and indexes, serialized at capture time. */
  meta: Buffer;
  /** The document references of that moment (the engine never mutates a stored document). */
  docs: Document[];
}

/** Takes what a snapshot needs from the live image, synchronously, so it is one consistent moment. */
export function captureImage(image: DataImage): CapturedCollection[] {
  const out: CapturedCollection[] = [];
  for (const [db, colls] of image) {
    for (const [coll, state] of colls) {
      const meta = Buffer.from(BSON.serialize({ db, coll, options: state.options, indexes: state.indexes }));
      out.push({ db, coll, meta, docs: state.docs.slice() });
    }
  }
  return out;
}

function typed(type: number, ...parts: Buffer[]): Buffer {
  return encodeFrame([Buffer.of(type), ...parts]);
}

export interface SnapshotStats {
  documents: number;
  bytes: number;
}

/** Writes a snapshot covering every journal segment before `nextSegment`, yielding to the event loop often. */
export async function writeSnapshot(dir: string, captured: CapturedCollection[], nextSegment: number): Promise<SnapshotStats> {
  const temp = path.join(dir, SNAPSHOT_TEMP_FILE);
  const handle = await fs.promises.open(temp, 'w');
  let bytes = 0;
  let documents = 0;
  try {
    let pending: Buffer[] = [SNAPSHOT_MAGIC];
    let pendingBytes = SNAPSHOT_MAGIC.length;
    const push = async (frame: Buffer): Promise<void> => {
      pending.push(frame);
      pendingBytes += frame.length;
      if (pendingBytes >= WRITE_BYTES) await flush();
    };
    const flush = async (): Promise<void> => {
      if (pendingBytes === 0) return;
      await handle.write(Buffer.concat(pending, pendingBytes));
      bytes += pendingBytes;
      pending = [];
      pendingBytes = 0;
    };

    const header = { format: 'parley-embedded-mongo', version: FORMAT_VERSION, nextSegment, createdAt: new Date() };
    await push(typed(FrameType.Header, Buffer.from(BSON.serialize(header))));
    for (const collection of captured) {
      await push(typed(FrameType.Collection, collection.meta));
      let chunk: Buffer[] = [];
      let chunkBytes = 0;
      for (const doc of collection.docs) {
        const encoded = BSON.serialize(doc);
        chunk.push(Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength));
        chunkBytes += encoded.byteLength;
        if (chunkBytes >= DOCS_FRAME_BYTES) {
          await push(typed(FrameType.Documents, ...chunk));
          chunk = [];
          chunkBytes = 0;
          // Serializing is synchronous work: give queued requests a turn between chunks.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
      if (chunk.length > 0) await push(typed(FrameType.Documents, ...chunk));
      documents += collection.docs.length;
    }
    await push(typed(FrameType.End, Buffer.from(BSON.serialize({ collections: captured.length, documents }))));
    await flush();
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(temp, path.join(dir, SNAPSHOT_FILE));
  await fsyncDir(dir);
  return { documents, bytes };
}

export interface LoadedSnapshot extends SnapshotStats {
  nextSegment: number;
}

/**
 * What this module wrote from JS strings and a checksum vouches for is valid UTF-8: skipping the re-check is a
 * noticeable part of start-up. Everything else is BSON.deserialize's defaults, as the engine expects.
 */
const TRUSTED = { validation: { utf8: false as const } };

function decode(file: string, payload: Buffer): Document {
  try {
    return BSON.deserialize(payload, TRUSTED);
  } catch (err) {
    throw new StorageCorruptError(file, `undecodable BSON: ${(err as Error).message}`);
  }
}

/** Loads `snapshot.bson` into the builder; undefined when there is none. Any damage throws. */
export async function readSnapshot(dir: string, builder: ImageBuilder): Promise<LoadedSnapshot | undefined> {
  const file = path.join(dir, SNAPSHOT_FILE);
  let buf: Buffer;
  try {
    buf = await fs.promises.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  if (!buf.subarray(0, SNAPSHOT_MAGIC.length).equals(SNAPSHOT_MAGIC)) throw new StorageCorruptError(file, 'not a snapshot');
  let pos = SNAPSHOT_MAGIC.length;
  let nextSegment: number | undefined;
  let current: { db: string; coll: string } | undefined;
  let documents = 0;
  let collections = 0;
  for (;;) {
    const frame = readFrame(buf, pos);
    if (frame.kind === 'bad') throw new StorageCorruptError(file, `${frame.reason} at offset ${pos}`);
    if (frame.kind === 'end') throw new StorageCorruptError(file, 'it ends before its end record');
    pos = frame.next;
    const type = frame.payload[0];
    const body = frame.payload.subarray(1);
    if (nextSegment === undefined && type !== FrameType.Header) throw new StorageCorruptError(file, 'missing header');
    if (type === FrameType.Header) {
      const header = decode(file, body);
      if (header.version !== FORMAT_VERSION) throw new StorageCorruptError(file, `unsupported format version ${header.version}`);
      nextSegment = Number(header.nextSegment);
    } else if (type === FrameType.Collection) {
      const meta = decode(file, body);
      current = { db: String(meta.db), coll: String(meta.coll) };
      builder.addCollection(current.db, current.coll, meta.options as Document, meta.indexes as IndexSpec[]);
      collections++;
    } else if (type === FrameType.Documents) {
      if (!current) throw new StorageCorruptError(file, 'documents before any collection');
      const docs: Document[] = [];
      for (let off = 0; off < body.length; ) {
        const size = body.readInt32LE(off);
        if (size < 5 || off + size > body.length) throw new StorageCorruptError(file, `bad document length at offset ${pos}`);
        docs.push(decode(file, body.subarray(off, off + size)));
        off += size;
      }
      builder.addDocuments(current.db, current.coll, docs);
      documents += docs.length;
    } else if (type === FrameType.End) {
      const totals = decode(file, body);
      if (totals.collections !== collections || totals.documents !== documents) {
        throw new StorageCorruptError(file, 'totals do not match its contents');
      }
      return { nextSegment: nextSegment!, documents, bytes: buf.length };
    } else {
      throw new StorageCorruptError(file, `unknown record type ${type}`);
    }
  }
}
