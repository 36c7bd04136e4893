/**
 * Loads a dump in mongodump's layout (format.ts), written by `db:dump` or by mongodump, through the official
 * driver: per collection, its options first (create), then its documents streamed in batches, then its indexes
 * (as mongorestore does: building them once over the data is cheaper than keeping them up during the load), views
 * last. Documents are decoded keeping their BSON types (Int32, Double, Long, regular expressions), so what reaches
 * the server is byte for byte what was dumped. `.gz` files are read gunzipped.
 *
 * A document whose _id is already there is skipped and counted (mongorestore does the same without --drop);
 * `drop` empties each collection of the dump first.
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import * as BSON from 'bson';
import { type Document, MongoBulkWriteError, type MongoClient } from 'mongodb';
import { BSON_SUFFIX, bsonDocuments, GZIP_SUFFIX, METADATA_SUFFIX, parseMetadata, queryUnescape } from './format';

/** Documents per insert, and the bytes a batch stops at (the driver splits what goes over a message anyway). */
const BATCH_DOCUMENTS = 1000;
const BATCH_BYTES = 8 * 1024 * 1024;
const DUPLICATE_KEY = 11000;

export type RestoreProgress = {
  db: string;
  collection: string;
  documents: number;
  totalDocuments: number;
  totalBytes: number;
};

export type RestoreSummary = {
  databases: number;
  collections: number;
  documents: number;
  /** Documents left out because their _id was already in the collection. */
  duplicates: number;
  indexes: number;
  bytes: number;
  seconds: number;
};

export type RestoreOptions = {
  client: MongoClient;
  dir: string;
  /**
   * Restore into this database: the dump must then hold one database (or one of this name). Undefined: each
   * database of the dump under its own name.
   */
  db?: string;
  drop?: boolean;
  onProgress?: (progress: RestoreProgress) => void;
  warn?: (message: string) => void;
};

type CollectionFiles = { name: string; bson?: string; metadata?: string };
type DatabaseFiles = { name: string; dir: string; collections: CollectionFiles[] };

export async function restore(options: RestoreOptions): Promise<RestoreSummary> {
  const started = performance.now();
  const warn = options.warn ?? (() => {});
  const summary: RestoreSummary = { databases: 0, collections: 0, documents: 0, duplicates: 0, indexes: 0, bytes: 0, seconds: 0 };
  const plan = chooseDatabases(await readLayout(options.dir, warn), options.db, options.dir);
  for (const { source, target } of plan) {
    summary.databases++;
    const views: { name: string; options: Document }[] = [];
    for (const files of source.collections) {
      const meta = files.metadata ? parseMetadata(await readText(files.metadata), files.metadata) : undefined;
      const name = meta?.collectionName ?? files.name;
      if (meta?.type === 'view') {
        views.push({ name, options: meta.options });
        continue;
      }
      if (meta?.type === 'timeseries') {
        warn(`${source.name}.${name} is a time-series collection: not restored (use mongorestore)`);
        continue;
      }
      await restoreCollection(options, target, name, files, meta, summary);
    }
    const db = options.client.db(target);
    for (const view of views) {
      if (options.drop) await db.collection(view.name).drop().catch(ignoreNotFound);
      await db.command({ create: view.name, ...view.options });
      summary.collections++;
    }
  }
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

/** The databases to restore and the name each gets. */
function chooseDatabases(found: DatabaseFiles[], db: string | undefined, dir: string): { source: DatabaseFiles; target: string }[] {
  if (db === undefined) return found.map((source) => ({ source, target: source.name }));
  const named = found.find((d) => d.name === db);
  if (named) return [{ source: named, target: db }];
  if (found.length === 1) return [{ source: found[0], target: db }];
  if (found.length === 0) return [];
  throw new Error(`${dir} holds ${found.length} databases (${found.map((d) => d.name).join(', ')}) and none is named ${db}`);
}

/**
 * The dump's databases: `dir` is either a dump (one folder per database) or one database's folder (its files
 * directly in it, named after the folder).
 */
async function readLayout(dir: string, warn: (message: string) => void): Promise<DatabaseFiles[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const own = collectionsIn(
    dir,
    entries.filter((e) => e.isFile()).map((e) => e.name),
  );
  if (own.length > 0) return [{ name: path.basename(path.resolve(dir)), dir, collections: own }];
  const out: DatabaseFiles[] = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const dbDir = path.join(dir, entry.name);
    const files = (await readdir(dbDir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
    const collections = collectionsIn(dbDir, files);
    if (collections.length > 0) out.push({ name: entry.name, dir: dbDir, collections });
    else warn(`${dbDir} holds no .bson or .metadata.json files: skipped`);
  }
  return out;
}

/** A folder's collections, from its `.bson` and `.metadata.json` files (gzipped or not). */
function collectionsIn(dir: string, files: string[]): CollectionFiles[] {
  const byBase = new Map<string, CollectionFiles>();
  for (const file of files) {
    const plain = file.endsWith(GZIP_SUFFIX) ? file.slice(0, -GZIP_SUFFIX.length) : file;
    const kind = plain.endsWith(METADATA_SUFFIX) ? 'metadata' : plain.endsWith(BSON_SUFFIX) ? 'bson' : undefined;
    if (!kind) continue;
    const base = plain.slice(0, -(kind === 'metadata' ? METADATA_SUFFIX : BSON_SUFFIX).length);
    // Special files mongodump writes beside collections (users and roles of a one-database dump, the oplog).
    if (base.startsWith('$') || base === 'oplog' || base === 'system.profile' || base === 'system.indexes') continue;
    const name = queryUnescape(base) ?? base;
    const entry = byBase.get(base) ?? { name };
    entry[kind] = path.join(dir, file);
    byBase.set(base, entry);
  }
  return [...byBase.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function restoreCollection(
  options: RestoreOptions,
  dbName: string,
  name: string,
  files: CollectionFiles,
  meta: ReturnType<typeof parseMetadata> | undefined,
  summary: RestoreSummary,
): Promise<void> {
  const db = options.client.db(dbName);
  const coll = db.collection(name);
  if (options.drop) await coll.drop().catch(ignoreNotFound);
  const exists = (await db.listCollections({ name }, { nameOnly: true }).toArray()).length > 0;
  if (!exists) await db.command({ create: name, ...(meta?.options ?? {}) });
  summary.collections++;

  if (files.bson) {
    let documents = 0;
    let batch: Document[] = [];
    let batchBytes = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const inserting = batch;
      batch = [];
      batchBytes = 0;
      summary.duplicates += await insertBatch(coll, inserting);
      options.onProgress?.({ db: dbName, collection: name, documents, totalDocuments: summary.documents, totalBytes: summary.bytes });
    };
    for await (const raw of bsonDocuments(openMaybeGzipped(files.bson), files.bson)) {
      batch.push(BSON.deserialize(raw, { promoteValues: false, promoteBuffers: false, bsonRegExp: true, validation: { utf8: false } }));
      batchBytes += raw.length;
      documents++;
      summary.documents++;
      summary.bytes += raw.length;
      if (batch.length >= BATCH_DOCUMENTS || batchBytes >= BATCH_BYTES) await flush();
    }
    await flush();
  }

  const indexes = (meta?.indexes ?? []).filter((index) => index.name !== '_id_').map(({ ns: _ns, ...spec }) => spec);
  if (indexes.length > 0) {
    await db.command({ createIndexes: name, indexes });
    summary.indexes += indexes.length;
  }
}

/** Inserts a batch, unordered; returns how many documents were already there (duplicate _id). */
async function insertBatch(coll: ReturnType<ReturnType<MongoClient['db']>['collection']>, docs: Document[]): Promise<number> {
  try {
    await coll.insertMany(docs, { ordered: false, forceServerObjectId: false });
    return 0;
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) throw err;
    const errors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
    const other = errors.find((e) => e.code !== DUPLICATE_KEY);
    if (other) throw err;
    return errors.length;
  }
}

function ignoreNotFound(err: unknown): boolean {
  if ((err as { code?: number }).code === 26) return false;
  throw err;
}

function openMaybeGzipped(file: string): Readable {
  const input = createReadStream(file, { highWaterMark: 1024 * 1024 });
  if (!file.endsWith(GZIP_SUFFIX)) return input;
  const gunzip = createGunzip();
  input.on('error', (err) => gunzip.destroy(err));
  return input.pipe(gunzip);
}

async function readText(file: string): Promise<string> {
  const buf = await readFile(file);
  return (file.endsWith(GZIP_SUFFIX) ? gunzipSync(buf) : buf).toString('utf8');
}
