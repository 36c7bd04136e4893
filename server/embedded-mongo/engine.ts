/**
 * The live data: databases → collections, every mutation recorded as a WriteOp for the storage layer.
 * Mutations happen synchronously in memory; a command acknowledges them only after storage.append resolved.
 */
import type { Document } from 'bson';
import { Collection, ID_INDEX } from './collection';
import { CursorStore } from './cursors';
import { CommandError, ErrorCodes } from './errors';
import { SnapshotStore } from './snapshots';
import type { DataImage, IndexSpec, Storage, WriteOp } from './storage';
import { canonicalKey, pathValues } from './values';

const INVALID_DB_CHARS = /[/\\. "$*<>:|?\0]/;

export function validateDbName(db: unknown): asserts db is string {
  if (typeof db !== 'string' || db.length === 0 || db.length >= 64 || INVALID_DB_CHARS.test(db)) {
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid database name: '${String(db)}'`);
  }
}

export function validateCollName(db: string, name: unknown): asserts name is string {
  if (typeof name !== 'string') {
    throw new CommandError(ErrorCodes.InvalidNamespace, `collection name has invalid type ${typeof name}`);
  }
  if (name.length === 0 || name.includes('\0') || name.startsWith('.') || (name.includes('$') && !name.startsWith('$cmd'))) {
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid namespace specified '${db}.${name}'`);
  }
}

export class Engine {
  readonly dbs = new Map<string, Map<string, Collection>>();
  readonly cursors = new CursorStore();
  /** Point-in-time views for snapshot reads (snapshots.ts). */
  readonly snapshots = new SnapshotStore();
  /** serverStatus's opcounters, counted as mongod counts them (documents inserted, statements, commands). */
  readonly opcounters = { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 };
  private readonly warned = new Set<string>();

  constructor(
    readonly storage: Storage,
    readonly log: (msg: string) => void,
  ) {}

  /** Logs a warning once per distinct message (collation notices would otherwise repeat on every query). */
  warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.log(message);
  }

  /** Rebuilds the live state (documents and indexes) from what storage loaded. */
  loadImage(image: DataImage): void {
    for (const [db, colls] of image) {
      for (const [name, img] of colls) {
        const coll = new Collection(db, name, img.options ?? {});
        for (const doc of img.docs) coll.docs.set(canonicalKey(doc._id), doc);
        for (const spec of img.indexes) {
          if (spec.name === ID_INDEX.name) continue;
          try {
            coll.addIndex(spec);
          } catch (err) {
            this.log(`embedded-mongo: index ${spec.name} on ${coll.ns} could not be rebuilt: ${(err as Error).message}`);
          }
        }
        this.collections(db, true).set(name, coll);
      }
    }
  }

  /**
   * Puts the live state back to what storage holds durably (after a write that could not be journaled): writes
   * the engine applied but the disk refused are gone again, so nothing half-applied is ever read.
   */
  replaceImage(image: DataImage): void {
    this.dbs.clear();
    this.loadImage(image);
  }

  /** A cheap snapshot of references for the storage layer's background compaction. */
  image(): DataImage {
    const out: DataImage = new Map();
    for (const [db, colls] of this.dbs) {
      const m = new Map();
      for (const [name, coll] of colls) {
        m.set(name, { options: coll.options, indexes: coll.indexSpecs(), docs: Array.from(coll.docs.values()) });
      }
      out.set(db, m);
    }
    return out;
  }

  collections(db: string, create: true): Map<string, Collection>;
  collections(db: string, create?: false): Map<string, Collection> | undefined;
  collections(db: string, create = false): Map<string, Collection> | undefined {
    let colls = this.dbs.get(db);
    if (!colls && create) {
      colls = new Map();
      this.dbs.set(db, colls);
    }
    return colls;
  }

  get(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  /** The collection, created implicitly (as mongod does on first write) when missing. */
  ensure(db: string, name: string, ops: WriteOp[]): { coll: Collection; created: boolean } {
    const existing = this.get(db, name);
    if (existing) return { coll: existing, created: false };
    validateDbName(db);
    validateCollName(db, name);
    return { coll: this.create(db, name, {}, ops), created: true };
  }

  create(db: string, name: string, options: Document, ops: WriteOp[]): Collection {
    validateDbName(db);
    validateCollName(db, name);
    if (this.get(db, name)) throw new CommandError(ErrorCodes.NamespaceExists, `Collection ${db}.${name} already exists.`);
    const coll = new Collection(db, name, options);
    this.collections(db, true).set(name, coll);
    ops.push({ op: 'createCollection', db, coll: name, options });
    return coll;
  }

  drop(db: string, name: string, ops: WriteOp[]): boolean {
    const colls = this.dbs.get(db);
    if (!colls?.has(name)) return false;
    colls.delete(name);
    if (colls.size === 0) this.dbs.delete(db);
    ops.push({ op: 'dropCollection', db, coll: name });
    return true;
  }

  dropDatabase(db: string, ops: WriteOp[]): void {
    if (!this.dbs.has(db)) return;
    this.dbs.delete(db);
    ops.push({ op: 'dropDatabase', db });
  }

  rename(db: string, from: string, toDb: string, to: string, dropTarget: boolean, ops: WriteOp[]): void {
    const source = this.get(db, from);
    if (!source) throw new CommandError(ErrorCodes.NamespaceNotFound, 'Source collection does not exist');
    validateDbName(toDb);
    validateCollName(toDb, to);
    if (db === toDb && from === to) throw new CommandError(ErrorCodes.IllegalOperation, "Can't rename a collection to itself");
    if (this.get(toDb, to)) {
      if (!dropTarget) throw new CommandError(ErrorCodes.NamespaceExists, 'target namespace exists');
      this.drop(toDb, to, ops);
    }
    const moved = new Collection(toDb, to, source.options);
    for (const [key, doc] of source.docs) moved.docs.set(key, doc);
    for (const index of source.indexes.values()) moved.addIndex(index.spec);
    const colls = this.dbs.get(db)!;
    colls.delete(from);
    if (colls.size === 0) this.dbs.delete(db);
    this.collections(toDb, true).set(to, moved);
    ops.push({ op: 'renameCollection', db, from, toDb, to });
  }

  insert(coll: Collection, doc: Document, ops: WriteOp[]): void {
    coll.insert(doc);
    ops.push({ op: 'insert', db: coll.db, coll: coll.name, doc });
  }

  replace(coll: Collection, oldDoc: Document, newDoc: Document, ops: WriteOp[]): void {
    coll.replace(oldDoc, newDoc);
    ops.push({ op: 'replace', db: coll.db, coll: coll.name, doc: newDoc });
  }

  remove(coll: Collection, doc: Document, ops: WriteOp[]): void {
    coll.remove(doc);
    ops.push({ op: 'delete', db: coll.db, coll: coll.name, id: doc._id });
  }

  createIndex(coll: Collection, spec: IndexSpec, ops: WriteOp[]): void {
    coll.addIndex(spec);
    ops.push({ op: 'createIndex', db: coll.db, coll: coll.name, spec });
  }

  dropIndex(coll: Collection, name: string, ops: WriteOp[]): void {
    coll.indexes.delete(name);
    ops.push({ op: 'dropIndex', db: coll.db, coll: coll.name, name });
  }

  /** Deletes documents whose TTL index date plus expireAfterSeconds has passed (mongod's TTL monitor). */
  expire(now = Date.now()): WriteOp[] {
    const ops: WriteOp[] = [];
    for (const colls of this.dbs.values()) {
      for (const coll of colls.values()) {
        for (const index of coll.indexes.values()) {
          const seconds = index.spec.expireAfterSeconds;
          if (typeof seconds !== 'number' || index.fields.length !== 1) continue;
          const field = index.fields[0];
          const expired: Document[] = [];
          for (const doc of coll.docs.values()) {
            let earliest = Infinity;
            for (const v of pathValues(doc, field)) {
              for (const item of Array.isArray(v) ? v : [v]) {
                if (item instanceof Date && item.getTime() < earliest) earliest = item.getTime();
              }
            }
            if (earliest + seconds * 1000 <= now) expired.push(doc);
          }
          for (const doc of expired) this.remove(coll, doc, ops);
        }
      }
    }
    return ops;
  }
}
