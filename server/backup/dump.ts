/**
 * A dump in mongodump's layout (format.ts), on the official driver: every collection read with `raw` (the BSON bytes
 * the server sent, never decoded) and streamed to its file, so memory stays flat whatever the size.
 *
 * Point in time: the reads share one snapshot session (`readConcern: snapshot`, one `atClusterTime`), so a dump
 * taken while Parley writes holds every message's conversation and every conversation's visitor. The embedded
 * store and a replica set answer snapshot reads; a standalone mongod does not, and the dump then reads each
 * collection as it comes (said in a warning and in the summary).
 */
import { createWriteStream } from 'node:fs';
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import type { ClientSession, Document, MongoClient } from 'mongodb';
import { BSON_SUFFIX, collectionFileBase, GZIP_SUFFIX, METADATA_SUFFIX, metadataJson, PRELUDE_FILE, preludeJson, uuidHex } from './format';

export const TOOL_VERSION = 'parley db:dump 1';
/** Databases a whole-server dump leaves out (mongodump dumps admin's users; Parley has none). */
const SKIPPED_DATABASES = new Set(['admin', 'local', 'config']);
/**
 * Documents per reply. The server would fill 16 MB replies; smaller ones keep the dump's memory low (each reply's
 * buffer lives until the collector frees it, and several wait at once) and cost no measurable time.
 */
const DEFAULT_BATCH_SIZE = 1000;
/** Bytes gathered before a write, so a million small documents are not a million writes. */
const WRITE_CHUNK_BYTES = 1024 * 1024;

export type DumpProgress = {
  db: string;
  collection: string;
  /** Documents of this collection written so far, and how many it held when the dump began (estimated). */
  documents: number;
  expected: number;
  /** Over the whole dump. */
  totalDocuments: number;
  totalBytes: number;
};

export type DumpSummary = {
  databases: number;
  collections: number;
  documents: number;
  /** BSON bytes of the documents (before gzip). */
  bytes: number;
  seconds: number;
  /** Whether every collection was read at one point in time. */
  pointInTime: boolean;
};

export type DumpOptions = {
  client: MongoClient;
  /** One database; undefined: every database but admin, local and config. */
  db?: string;
  out: string;
  gzip?: boolean;
  /** Documents per reply (1000 unless set; a reply stops at 16 MB anyway). */
  batchSize?: number;
  onProgress?: (progress: DumpProgress) => void;
  warn?: (message: string) => void;
};

type CollectionInfo = { name: string; type?: string; options?: Document; info?: { uuid?: unknown } };

export async function dump(options: DumpOptions): Promise<DumpSummary> {
  const started = performance.now();
  const { client, out } = options;
  const gzip = options.gzip === true;
  const warn = options.warn ?? (() => {});
  const dbNames = options.db !== undefined ? [options.db] : await listDatabases(client);

  const session = await openSnapshot(client, dbNames, warn);
  const summary: DumpSummary = { databases: 0, collections: 0, documents: 0, bytes: 0, seconds: 0, pointInTime: session !== undefined };
  try {
    for (const dbName of dbNames) {
      // Listed after the snapshot's time, so every collection it holds is here.
      const collections = await listCollections(client, dbName);
      if (collections.length === 0) continue;
      summary.databases++;
      const dir = path.join(out, dbName);
      await mkdir(dir, { recursive: true });
      for (const info of collections) {
        if (info.type === 'timeseries') {
          warn(`${dbName}.${info.name} is a time-series collection: not dumped (use mongodump)`);
          continue;
        }
        const base = path.join(dir, collectionFileBase(info.name));
        await writeText(`${base}${METADATA_SUFFIX}`, metadataJson(await metadataOf(client, dbName, info)), gzip);
        summary.collections++;
        if (info.type === 'view') continue;
        await dumpCollection(client, session, dbName, info.name, `${base}${BSON_SUFFIX}`, options, summary);
      }
    }
    if (summary.databases > 0) {
      const serverVersion = await client
        .db('admin')
        .command({ buildInfo: 1 })
        .then((info) => String(info.version ?? 'unknown'))
        .catch(() => 'unknown');
      // mongodump puts the prelude beside the databases, or in the database's folder for a one-database dump.
      const preludeDir = options.db !== undefined ? path.join(out, options.db) : out;
      await writeText(path.join(preludeDir, PRELUDE_FILE), preludeJson(serverVersion, TOOL_VERSION), gzip);
    }
  } finally {
    await session?.endSession();
  }
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

async function listDatabases(client: MongoClient): Promise<string[]> {
  const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
  return databases
    .map((d) => d.name)
    .filter((name) => !SKIPPED_DATABASES.has(name))
    .sort();
}

/** A database's collections as mongodump takes them: no `system.*` (but system.js), sorted by name. */
async function listCollections(client: MongoClient, dbName: string): Promise<CollectionInfo[]> {
  const infos = (await client.db(dbName).listCollections({}, { promoteValues: false }).toArray()) as CollectionInfo[];
  return infos
    .filter((info) => info.name === 'system.js' || !info.name.startsWith('system.'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * A snapshot session whose time is fixed by a first read; undefined when the server does not answer snapshot
 * reads (a standalone mongod), after a warning.
 */
async function openSnapshot(client: MongoClient, dbNames: string[], warn: (message: string) => void): Promise<ClientSession | undefined> {
  let probe: { db: string; collection: string } | undefined;
  for (const db of dbNames) {
    const first = (await listCollections(client, db)).find((c) => c.type !== 'view' && c.type !== 'timeseries');
    if (first) {
      probe = { db, collection: first.name };
      break;
    }
  }
  if (!probe) return undefined;
  const session = client.startSession({ snapshot: true });
  try {
    await client.db(probe.db).collection(probe.collection).find({}, { session, limit: 1 }).toArray();
    return session;
  } catch (err) {
    await session.endSession();
    warn(
      `the server does not answer snapshot reads (${(err as Error).message}); each collection is read as it comes, ` +
        'so documents written during the dump may refer to others it does not hold',
    );
    return undefined;
  }
}

async function metadataOf(client: MongoClient, dbName: string, info: CollectionInfo) {
  const indexes =
    info.type === 'view'
      ? []
      : await client.db(dbName).collection(info.name).listIndexes({ promoteValues: false }).toArray().catch(notFoundAsEmpty);
  return {
    options: info.options ?? {},
    indexes: indexes as Document[],
    uuid: uuidHex(info.info?.uuid),
    collectionName: info.name,
    type: info.type ?? 'collection',
  };
}

/** A collection dropped after it was listed has no indexes to dump. */
function notFoundAsEmpty(err: unknown): Document[] {
  if ((err as { code?: number }).code === 26) return [];
  throw err;
}

async function dumpCollection(
  client: MongoClient,
  session: ClientSession | undefined,
  dbName: string,
  name: string,
  file: string,
  options: DumpOptions,
  summary: DumpSummary,
): Promise<void> {
  const coll = client.db(dbName).collection(name);
  const expected = await coll.estimatedDocumentCount().catch(() => 0);
  const cursor = coll.find({}, { session, raw: true, batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE });
  let documents = 0;
  const report = () =>
    options.onProgress?.({
      db: dbName,
      collection: name,
      documents,
      expected,
      totalDocuments: summary.documents,
      totalBytes: summary.bytes,
    });
  async function* chunks(): AsyncGenerator<Buffer> {
    let pending: Buffer[] = [];
    let size = 0;
    // raw: each document is the Buffer the server sent (the driver types it as a document).
    for await (const raw of cursor as AsyncIterable<unknown>) {
      const doc = raw as Buffer;
      pending.push(doc);
      size += doc.length;
      documents++;
      summary.documents++;
      summary.bytes += doc.length;
      if (size >= WRITE_CHUNK_BYTES) {
        yield Buffer.concat(pending, size);
        pending = [];
        size = 0;
        report();
      }
    }
    if (size > 0) yield Buffer.concat(pending, size);
    report();
  }
  try {
    await writeStreamed(file, Readable.from(chunks()), options.gzip === true);
  } finally {
    await cursor.close();
  }
}

/** Writes a stream to `file` (gzipped to `file.gz`), then flushes it to disk. */
async function writeStreamed(file: string, source: Readable, gzip: boolean): Promise<void> {
  const target = gzip ? `${file}${GZIP_SUFFIX}` : file;
  const output = createWriteStream(target);
  if (gzip) await pipeline(source, createGzip(), output);
  else await pipeline(source, output);
  await syncFile(target);
}

/** fsync: a backup is only one once its bytes are on disk. */
async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeText(file: string, text: string, gzip: boolean): Promise<void> {
  const target = gzip ? `${file}${GZIP_SUFFIX}` : file;
  await writeFile(target, gzip ? gzipSync(text) : text);
  await syncFile(target);
}
