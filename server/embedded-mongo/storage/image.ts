/**
 * Rebuilds the data image from a snapshot and journal operations. Replay is idempotent (insert and replace are
 * upserts by _id, deletes and drops of missing things are no-ops), so an operation that is both in the snapshot
 * and in the journal after it does no harm.
 */
import { BSON, type Document } from 'bson';
import type { CollectionImage, DataImage, IndexSpec, WriteOp } from './types';

interface CollectionState {
  options: Document;
  indexes: IndexSpec[];
  /** Documents as loaded from the snapshot; replaced by `byId` once the journal touches the collection. */
  list: Document[] | null;
  byId: Map<string, Document> | null;
}

/** A string equal for two _id values exactly when they are the same key. */
export function idKey(id: unknown): string {
  if (typeof id === 'string') return `s${id}`;
  if (typeof id === 'number') return `n${id}`;
  if (id instanceof Date) return `d${id.getTime()}`;
  const tagged = id as { _bsontype?: string; toHexString?: () => string } | null;
  if (tagged && tagged._bsontype === 'ObjectId' && tagged.toHexString) return `o${tagged.toHexString()}`;
  return `x${Buffer.from(BSON.serialize({ v: id })).toString('base64')}`;
}

const OP_KINDS = new Set<string>([
  'insert',
  'replace',
  'delete',
  'createCollection',
  'dropCollection',
  'dropDatabase',
  'renameCollection',
  'createIndex',
  'dropIndex',
]);

/** Checks that a decoded journal entry has the shape of a WriteOp. */
export function asWriteOp(doc: Document): WriteOp {
  if (typeof doc.op !== 'string' || !OP_KINDS.has(doc.op) || typeof doc.db !== 'string') {
    throw new Error(`unknown journal operation ${JSON.stringify(doc.op)}`);
  }
  return doc as WriteOp;
}

export class ImageBuilder {
  private readonly dbs = new Map<string, Map<string, CollectionState>>();
  documentCount = 0;

  private collection(db: string, coll: string): CollectionState {
    let colls = this.dbs.get(db);
    if (!colls) {
      colls = new Map();
      this.dbs.set(db, colls);
    }
    let state = colls.get(coll);
    if (!state) {
      state = { options: {}, indexes: [], list: [], byId: null };
      colls.set(coll, state);
    }
    return state;
  }

  private byId(state: CollectionState): Map<string, Document> {
    if (!state.byId) {
      state.byId = new Map();
      for (const doc of state.list ?? []) state.byId.set(idKey(doc._id), doc);
      state.list = null;
    }
    return state.byId;
  }

  private removeCollection(db: string, coll: string): CollectionState | undefined {
    const colls = this.dbs.get(db);
    const state = colls?.get(coll);
    if (!colls || !state) return undefined;
    colls.delete(coll);
    // mongod has no empty databases: one lives exactly as long as it has a collection.
    if (colls.size === 0) this.dbs.delete(db);
    return state;
  }

  /** Snapshot loading: a collection with its metadata. */
  addCollection(db: string, coll: string, options: Document, indexes: IndexSpec[]): void {
    const state = this.collection(db, coll);
    state.options = options;
    state.indexes = indexes;
  }

  /** Snapshot loading: documents of a collection added with addCollection, in natural order. */
  addDocuments(db: string, coll: string, docs: Document[]): void {
    const state = this.collection(db, coll);
    if (state.byId) for (const doc of docs) state.byId.set(idKey(doc._id), doc);
    else for (const doc of docs) state.list!.push(doc);
  }

  apply(op: WriteOp): void {
    switch (op.op) {
      case 'insert':
      case 'replace':
        this.byId(this.collection(op.db, op.coll)).set(idKey(op.doc._id), op.doc);
        return;
      case 'delete': {
        const state = this.dbs.get(op.db)?.get(op.coll);
        if (state) this.byId(state).delete(idKey(op.id));
        return;
      }
      case 'createCollection':
        this.collection(op.db, op.coll).options = op.options ?? {};
        return;
      case 'dropCollection':
        this.removeCollection(op.db, op.coll);
        return;
      case 'dropDatabase':
        this.dbs.delete(op.db);
        return;
      case 'renameCollection': {
        const state = this.removeCollection(op.db, op.from);
        if (!state) return;
        this.removeCollection(op.toDb, op.to);
        let target = this.dbs.get(op.toDb);
        if (!target) {
          target = new Map();
          this.dbs.set(op.toDb, target);
        }
        target.set(op.to, state);
        return;
      }
      case 'createIndex': {
        const state = this.collection(op.db, op.coll);
        state.indexes = [...state.indexes.filter((i) => i.name !== op.spec.name), op.spec];
        return;
      }
      case 'dropIndex': {
        const state = this.dbs.get(op.db)?.get(op.coll);
        if (state) state.indexes = state.indexes.filter((i) => i.name !== op.name);
        return;
      }
    }
  }

  toImage(): DataImage {
    const image: DataImage = new Map();
    this.documentCount = 0;
    for (const [db, colls] of this.dbs) {
      const out = new Map<string, CollectionImage>();
      for (const [name, state] of colls) {
        const docs = state.byId ? [...state.byId.values()] : state.list!;
        this.documentCount += docs.length;
        out.set(name, { options: state.options, indexes: state.indexes, docs });
      }
      image.set(db, out);
    }
    return image;
  }
}
