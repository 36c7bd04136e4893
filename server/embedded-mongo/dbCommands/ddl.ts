/** Databases, collections and indexes: create, drop, list, rename, createIndexes, dropIndexes, stats. */

import type { Document } from 'bson';
import * as BSON from 'bson';
import type { Collection } from '../collection';
import { ID_INDEX } from '../collection';
import { validateCollName, validateDbName } from '../engine';
import { CommandError, ErrorCodes } from '../errors';
import { defaultIndexName, validateKeyPattern } from '../indexes';
import { compileFilter, matches } from '../query';
import type { IndexSpec } from '../storage';
import { canonicalKey, isPlainObject } from '../values';
import { bsonTypeName, collectionName, type Handler, optionalDocument } from './context';

/** Fields any command may carry that are not options of the command itself. */
const GENERIC_FIELDS = new Set([
  '$db',
  'lsid',
  '$readPreference',
  'readPreference',
  'writeConcern',
  'readConcern',
  '$clusterTime',
  'comment',
  'maxTimeMS',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'txnNumber',
  'autocommit',
  'startTransaction',
]);

export const create: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, 'create');
  const options: Document = {};
  for (const [field, value] of Object.entries(cmd)) if (!GENERIC_FIELDS.has(field) && field !== 'create') options[field] = value;
  if (options.viewOn !== undefined) {
    throw new CommandError(
      ErrorCodes.CommandNotSupported,
      'views are not supported by the embedded server; set MONGODB_URI to use a real MongoDB',
    );
  }
  ctx.engine.create(ctx.db, name, options, ctx.ops);
  return { ok: 1 };
};

export const drop: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, 'drop');
  const coll = ctx.engine.get(ctx.db, name);
  if (!coll) return { ok: 1 };
  const nIndexesWas = coll.indexes.size + 1;
  ctx.engine.drop(ctx.db, name, ctx.ops);
  return { nIndexesWas, ns: coll.ns, ok: 1 };
};

export const dropDatabase: Handler = (_cmd, ctx) => {
  validateDbName(ctx.db);
  ctx.engine.dropDatabase(ctx.db, ctx.ops);
  return { ok: 1 };
};

function collectionInfo(coll: Collection): Document {
  return {
    name: coll.name,
    type: 'collection',
    options: coll.options,
    info: { readOnly: false, uuid: coll.uuid },
    idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
  };
}

export const listCollections: Handler = (cmd, ctx) => {
  const filter = optionalDocument(cmd, 'filter') ?? {};
  const query = compileFilter(filter);
  const nameOnly = cmd.nameOnly === true;
  const infos = [...(ctx.engine.collections(ctx.db)?.values() ?? [])]
    .map(collectionInfo)
    .filter((info) => matches(query, info))
    .map((info) => (nameOnly ? { name: info.name, type: info.type } : info));
  const batchSize = isPlainObject(cmd.cursor) && typeof cmd.cursor.batchSize === 'number' ? cmd.cursor.batchSize : undefined;
  const cursor = ctx.engine.cursors.create(`${ctx.db}.$cmd.listCollections`, infos, { batchSize });
  return { cursor: { id: cursor.id, ns: cursor.ns, firstBatch: cursor.batch }, ok: 1 };
};

export const listDatabases: Handler = (cmd, ctx) => {
  if (ctx.db !== 'admin') throw new CommandError(ErrorCodes.Unauthorized, 'listDatabases may only be run against the admin database.');
  const filter = optionalDocument(cmd, 'filter') ?? {};
  const query = compileFilter(filter);
  let totalSize = 0;
  const databases: Document[] = [];
  for (const [name, colls] of ctx.engine.dbs) {
    let sizeOnDisk = 0;
    for (const coll of colls.values()) sizeOnDisk += dataSize(coll);
    const entry = { name, sizeOnDisk, empty: sizeOnDisk === 0 };
    if (!matches(query, entry)) continue;
    totalSize += sizeOnDisk;
    databases.push(cmd.nameOnly === true ? { name } : entry);
  }
  return cmd.nameOnly === true ? { databases, ok: 1 } : { databases, totalSize, totalSizeMb: Math.floor(totalSize / 1048576), ok: 1 };
};

function splitNs(ns: unknown, field: string): [string, string] {
  if (typeof ns !== 'string') {
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field 'renameCollection.${field}' is the wrong type '${bsonTypeName(ns)}', expected type 'string'`,
    );
  }
  const dot = ns.indexOf('.');
  if (dot <= 0) throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid ${field} namespace: ${ns}`);
  return [ns.slice(0, dot), ns.slice(dot + 1)];
}

export const renameCollection: Handler = (cmd, ctx) => {
  if (ctx.db !== 'admin') throw new CommandError(ErrorCodes.Unauthorized, 'renameCollection may only be run against the admin database.');
  const [db, from] = splitNs(cmd.renameCollection, 'renameCollection');
  const [toDb, to] = splitNs(cmd.to, 'to');
  validateCollName(toDb, to);
  ctx.engine.rename(db, from, toDb, to, cmd.dropTarget === true, ctx.ops);
  return { ok: 1 };
};

function indexDocument(spec: IndexSpec): Document {
  const { name, key, ...options } = spec;
  return { v: 2, key, name, ...options };
}

export const listIndexes: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, 'listIndexes');
  const coll = ctx.engine.get(ctx.db, name);
  if (!coll) throw new CommandError(ErrorCodes.NamespaceNotFound, `ns does not exist: ${ctx.db}.${name}`);
  const batchSize = isPlainObject(cmd.cursor) && typeof cmd.cursor.batchSize === 'number' ? cmd.cursor.batchSize : undefined;
  const cursor = ctx.engine.cursors.create(`${ctx.db}.${name}`, coll.indexSpecs().map(indexDocument), { batchSize });
  return { cursor: { id: cursor.id, ns: cursor.ns, firstBatch: cursor.batch }, ok: 1 };
};

/** Options that make two index definitions different (anything else, like `background`, is cosmetic). */
const IGNORED_INDEX_OPTIONS = new Set(['v', 'ns', 'background', 'name', 'key']);

function normalizeSpec(raw: unknown): IndexSpec {
  if (!isPlainObject(raw)) throw new CommandError(ErrorCodes.TypeMismatch, 'index specification must be an object');
  validateKeyPattern(raw.key);
  const key = raw.key as Record<string, number | string>;
  const name = raw.name === undefined ? defaultIndexName(key) : raw.name;
  if (typeof name !== 'string' || !name) throw new CommandError(ErrorCodes.CannotCreateIndex, 'The index name must be a non-empty string');
  const spec: IndexSpec = { name, key };
  for (const [option, value] of Object.entries(raw)) {
    if (IGNORED_INDEX_OPTIONS.has(option)) continue;
    spec[option] = value;
  }
  if (spec.expireAfterSeconds !== undefined) {
    const s = spec.expireAfterSeconds;
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0) {
      throw new CommandError(
        ErrorCodes.CannotCreateIndex,
        `TTL index 'expireAfterSeconds' option must be numeric and non-negative, but received: ${String(s)}`,
      );
    }
  }
  if (spec.unique === false) delete spec.unique;
  if (spec.sparse === false) delete spec.sparse;
  return spec;
}

function optionsKey(spec: IndexSpec): string {
  const opts: Document = {};
  for (const k of Object.keys(spec).sort()) if (!IGNORED_INDEX_OPTIONS.has(k)) opts[k] = spec[k];
  return canonicalKey(opts);
}

export const createIndexes: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, 'createIndexes');
  if (!Array.isArray(cmd.indexes) || cmd.indexes.length === 0) {
    throw new CommandError(ErrorCodes.BadValue, 'Must specify at least one index to create');
  }
  const specs = cmd.indexes.map(normalizeSpec);
  const existing = ctx.engine.get(ctx.db, name);
  const numIndexesBefore = existing ? existing.indexes.size + 1 : 0;
  const { coll, created } = ctx.engine.ensure(ctx.db, name, ctx.ops);
  let added = 0;
  for (const spec of specs) {
    const sameKey = coll.indexSpecs().find((s) => canonicalKey(s.key) === canonicalKey(spec.key));
    const sameName = coll.indexSpecs().find((s) => s.name === spec.name);
    if (sameName) {
      if (canonicalKey(sameName.key) !== canonicalKey(spec.key)) {
        throw new CommandError(
          ErrorCodes.IndexKeySpecsConflict,
          `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(indexDocument(spec))}, existing index: ${JSON.stringify(indexDocument(sameName))}`,
        );
      }
      if (sameName.name !== ID_INDEX.name && optionsKey(sameName) !== optionsKey(spec)) {
        throw new CommandError(
          ErrorCodes.IndexOptionsConflict,
          `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(indexDocument(spec))}, existing index: ${JSON.stringify(indexDocument(sameName))}`,
        );
      }
      continue;
    }
    if (sameKey && optionsKey(sameKey) === optionsKey(spec)) {
      throw new CommandError(ErrorCodes.IndexOptionsConflict, `Index already exists with a different name: ${sameKey.name}`);
    }
    if (sameKey && sameKey.name === ID_INDEX.name) {
      throw new CommandError(
        ErrorCodes.InvalidIndexSpecificationOption,
        `The field 'unique' is not valid for an _id index specification. Specification: ${JSON.stringify(indexDocument(spec))}`,
      );
    }
    ctx.engine.createIndex(coll, spec, ctx.ops);
    added++;
  }
  const reply: Document = { numIndexesBefore: created ? 1 : numIndexesBefore, numIndexesAfter: coll.indexes.size + 1 };
  if (added === 0) reply.note = 'all indexes already exist';
  reply.createdCollectionAutomatically = created;
  reply.ok = 1;
  return reply;
};

export const dropIndexes: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, Object.keys(cmd)[0]);
  const coll = ctx.engine.get(ctx.db, name);
  if (!coll) throw new CommandError(ErrorCodes.NamespaceNotFound, `ns not found ${ctx.db}.${name}`);
  const nIndexesWas = coll.indexes.size + 1;
  const target = cmd.index;
  let names: string[];
  if (target === '*') {
    names = [...coll.indexes.keys()];
  } else if (typeof target === 'string') {
    names = [target];
  } else if (Array.isArray(target)) {
    names = target.map(String);
  } else if (isPlainObject(target)) {
    const found = coll.indexSpecs().find((s) => canonicalKey(s.key) === canonicalKey(target));
    if (!found) throw new CommandError(ErrorCodes.IndexNotFound, `can't find index with key: ${JSON.stringify(target)}`);
    names = [found.name];
  } else {
    throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'dropIndexes.index' is the wrong type");
  }
  for (const indexName of names) {
    if (indexName === ID_INDEX.name) throw new CommandError(ErrorCodes.InvalidOptions, 'cannot drop _id index');
    if (!coll.indexes.has(indexName)) throw new CommandError(ErrorCodes.IndexNotFound, `index not found with name [${indexName}]`);
  }
  for (const indexName of names) ctx.engine.dropIndex(coll, indexName, ctx.ops);
  return target === '*' ? { nIndexesWas, msg: 'non-_id indexes dropped for collection', ok: 1 } : { nIndexesWas, ok: 1 };
};

function dataSize(coll: Collection): number {
  let size = 0;
  for (const doc of coll.docs.values()) size += BSON.calculateObjectSize(doc);
  return size;
}

/** Storage statistics of a collection; index sizes are estimates (the indexes live in memory). */
export function storageStats(coll: Collection): Document {
  const size = dataSize(coll);
  const count = coll.docs.size;
  const indexSizes: Document = {};
  for (const spec of coll.indexSpecs()) indexSizes[spec.name] = count * 32;
  const totalIndexSize = (coll.indexes.size + 1) * count * 32;
  return {
    ns: coll.ns,
    size,
    count,
    avgObjSize: count ? Math.floor(size / count) : 0,
    storageSize: size,
    capped: coll.options.capped === true,
    nindexes: coll.indexes.size + 1,
    totalIndexSize,
    totalSize: size + totalIndexSize,
    indexSizes,
    scaleFactor: 1,
  };
}

export const collStats: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, 'collStats');
  const coll = ctx.engine.get(ctx.db, name);
  if (!coll) throw new CommandError(ErrorCodes.NamespaceNotFound, `Collection [${ctx.db}.${name}] not found.`);
  return { ...storageStats(coll), ok: 1 };
};

export const dbStats: Handler = (_cmd, ctx) => {
  let objects = 0;
  let size = 0;
  let indexes = 0;
  const colls = ctx.engine.collections(ctx.db);
  for (const coll of colls?.values() ?? []) {
    objects += coll.docs.size;
    size += dataSize(coll);
    indexes += coll.indexes.size + 1;
  }
  return {
    db: ctx.db,
    collections: colls?.size ?? 0,
    views: 0,
    objects,
    avgObjSize: objects ? size / objects : 0,
    dataSize: size,
    storageSize: size,
    indexes,
    indexSize: indexes * objects * 32,
    totalSize: size,
    scaleFactor: 1,
    fsUsedSize: 0,
    fsTotalSize: 0,
    ok: 1,
  };
};
