/** find, getMore, killCursors, insert, update, delete, findAndModify, count, distinct. */
import * as BSON from 'bson';
import { type Document, Long, ObjectId } from 'bson';
import { cursorIdOf } from '../cursors';
import { CommandError, ErrorCodes, toCommandError } from '../errors';
import { MAX_BSON_OBJECT_SIZE, MAX_WRITE_BATCH_SIZE } from '../protocol';
import { compileProjection, lazyFilter, parseSort, sortDocs } from '../query';
import { selectFromSnapshot, snapshotOf } from '../snapshots';
import { applyUpdate, buildUpsert, isOperatorUpdate, type UpdateSpec, validateUpdate } from '../update';
import { canonicalKey, isPlainObject, pathValues } from '../values';
import {
  bsonTypeName,
  type CommandContext,
  collectionName,
  countDocs,
  type Handler,
  nonNegative,
  optionalDocument,
  selectDocs,
  selectSorted,
  writeErrorOf,
} from './context';

function warnCollation(cmd: Document, ctx: CommandContext, holder: Document = cmd): void {
  const command = Object.keys(cmd)[0];
  if (holder.collation)
    ctx.engine.warnOnce(`embedded-mongo: collation is not supported and was ignored (${command} on ${ctx.db}.${String(cmd[command])})`);
}

export const find: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, 'find');
  warnCollation(cmd, ctx);
  const filter = optionalDocument(cmd, 'filter') ?? {};
  const query = lazyFilter(filter);
  const sort = parseSort(cmd.sort);
  const projector = compileProjection(cmd.projection);
  const skip = nonNegative(cmd, 'skip') ?? 0;
  const limit = nonNegative(cmd, 'limit') ?? 0;
  const batchSize = nonNegative(cmd, 'batchSize');
  const coll = ctx.engine.get(ctx.db, name);
  // {$natural: -1} asks for reverse insertion order; other sort keys then apply on top (stable sort).
  const reverse = isPlainObject(cmd.sort) && Number(cmd.sort.$natural) === -1;
  const snapshot = snapshotOf(cmd, ctx.engine.snapshots, ctx.engine.dbs);
  let docs: Document[];
  if (snapshot) {
    docs = selectFromSnapshot(snapshot, `${ctx.db}.${name}`, filter, query, sort, reverse);
  } else if (sort && !reverse) {
    docs = selectSorted(coll, filter, query, sort, limit ? skip + limit : Infinity);
  } else {
    docs = selectDocs(coll, filter, query, sort || reverse || limit === 0 ? Infinity : skip + limit);
    if (reverse) docs.reverse();
    if (sort) docs = sortDocs(docs, sort, limit ? skip + limit : Infinity);
  }
  if (skip) docs = docs.slice(skip);
  if (limit) docs = docs.slice(0, limit);
  const singleBatch = cmd.singleBatch === true;
  const cursor = ctx.engine.cursors.create(`${ctx.db}.${name}`, docs, { batchSize, singleBatch, map: projector });
  const reply: Document = { firstBatch: cursor.batch, id: cursor.id, ns: cursor.ns };
  if (snapshot) reply.atClusterTime = snapshot.time;
  return { cursor: reply, ok: 1 };
};

export const getMore: Handler = (cmd, ctx) => {
  const id = cursorIdOf(cmd.getMore);
  if (id === undefined) {
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field 'getMore.getMore' is the wrong type '${bsonTypeName(cmd.getMore)}', expected type 'long'`,
    );
  }
  const name = collectionName(cmd, 'collection');
  const cursor = ctx.engine.cursors.getMore(id, `${ctx.db}.${name}`, nonNegative(cmd, 'batchSize'));
  return { cursor: { nextBatch: cursor.batch, id: cursor.id, ns: cursor.ns }, ok: 1 };
};

export const killCursors: Handler = (cmd, ctx) => {
  collectionName(cmd, 'killCursors');
  if (!Array.isArray(cmd.cursors)) {
    throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'killCursors.cursors' is missing but a required field");
  }
  const killed: Long[] = [];
  const notFound: Long[] = [];
  for (const raw of cmd.cursors) {
    const id = cursorIdOf(raw);
    if (id === undefined) continue;
    (ctx.engine.cursors.kill(id) ? killed : notFound).push(Long.fromNumber(id));
  }
  return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
};

function batchOf(cmd: Document, field: string): Document[] {
  const items = cmd[field];
  if (!Array.isArray(items)) {
    throw new CommandError(ErrorCodes.FailedToParse, `BSON field '${Object.keys(cmd)[0]}.${field}' is missing but a required field`);
  }
  if (items.length === 0)
    throw new CommandError(ErrorCodes.InvalidLength, 'Write batch sizes must be between 1 and 100000. Got 0 operations.');
  if (items.length > MAX_WRITE_BATCH_SIZE) {
    throw new CommandError(ErrorCodes.InvalidLength, `Write batch sizes must be between 1 and 100000. Got ${items.length} operations.`);
  }
  return items as Document[];
}

function checkSize(doc: Document, knownSize: number | undefined, context: 'insert' | 'update'): void {
  const size = knownSize ?? BSON.calculateObjectSize(doc);
  if (size <= MAX_BSON_OBJECT_SIZE) return;
  if (context === 'insert') {
    throw new CommandError(ErrorCodes.BadValue, `object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_OBJECT_SIZE}`);
  }
  throw new CommandError(ErrorCodes.Location17419, `Resulting document after update is larger than ${MAX_BSON_OBJECT_SIZE}`);
}

function prepareInsert(raw: unknown): Document {
  if (!isPlainObject(raw)) throw new CommandError(ErrorCodes.TypeMismatch, 'documents to insert must be objects');
  if (!('_id' in raw)) return { _id: new ObjectId(), ...raw };
  const id = raw._id;
  if (Array.isArray(id)) throw new CommandError(ErrorCodes.InvalidIdField, "The '_id' value cannot be of type array");
  if (id instanceof RegExp) throw new CommandError(ErrorCodes.InvalidIdField, "The '_id' value cannot be of type regex");
  const { _id, ...rest } = raw;
  // mongod stores _id as the first field whatever order the client sent.
  return { _id: _id === undefined ? null : _id, ...rest };
}

export const insert: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, 'insert');
  const docs = batchOf(cmd, 'documents');
  const sizes = ctx.sequenceSizes.get('documents');
  const ordered = cmd.ordered !== false;
  const { coll } = ctx.engine.ensure(ctx.db, name, ctx.ops);
  const writeErrors: Document[] = [];
  let n = 0;
  for (let i = 0; i < docs.length; i++) {
    try {
      checkSize(docs[i], sizes?.[i], 'insert');
      ctx.engine.insert(coll, prepareInsert(docs[i]), ctx.ops);
      n++;
    } catch (err) {
      writeErrors.push(writeErrorOf(i, toCommandError(err)));
      if (ordered) break;
    }
  }
  return writeErrors.length ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
};

interface UpdateStatement {
  q: Document;
  u: UpdateSpec;
  multi: boolean;
  upsert: boolean;
  arrayFilters?: Document[];
}

function parseUpdateStatement(raw: Document): UpdateStatement {
  if (!isPlainObject(raw)) throw new CommandError(ErrorCodes.TypeMismatch, 'update statements must be objects');
  const q = raw.q ?? {};
  if (!isPlainObject(q))
    throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'update.updates.q' is the wrong type, expected type 'object'");
  const u = raw.u;
  if (u === undefined) throw new CommandError(ErrorCodes.FailedToParse, "BSON field 'update.updates.u' is missing but a required field");
  validateUpdate(u);
  const multi = raw.multi === true;
  if (multi && !Array.isArray(u) && !isOperatorUpdate(u)) {
    throw new CommandError(ErrorCodes.FailedToParse, 'multi update is not supported for replacement-style update');
  }
  const arrayFilters = raw.arrayFilters;
  if (arrayFilters !== undefined && !Array.isArray(arrayFilters)) {
    throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'update.updates.arrayFilters' is the wrong type, expected type 'array'");
  }
  return { q, u, multi, upsert: raw.upsert === true, arrayFilters };
}

export const update: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, 'update');
  const statements = batchOf(cmd, 'updates');
  const ordered = cmd.ordered !== false;
  const writeErrors: Document[] = [];
  const upserted: Document[] = [];
  let n = 0;
  let nModified = 0;
  for (let i = 0; i < statements.length; i++) {
    try {
      const st = parseUpdateStatement(statements[i]);
      warnCollation(cmd, ctx, statements[i]);
      const query = lazyFilter(st.q);
      const coll = ctx.engine.get(ctx.db, name);
      const matched = selectDocs(coll, st.q, query, st.multi ? Infinity : 1);
      if (matched.length === 0 && st.upsert) {
        const doc = buildUpsert(st.q, st.u, st.arrayFilters);
        checkSize(doc, undefined, 'update');
        const target = ctx.engine.ensure(ctx.db, name, ctx.ops).coll;
        ctx.engine.insert(target, doc, ctx.ops);
        upserted.push({ index: i, _id: doc._id });
        n++;
        continue;
      }
      for (const doc of matched) {
        const next = applyUpdate(doc, st.u, { arrayFilters: st.arrayFilters, query: st.q });
        n++;
        if (next === doc) continue;
        checkSize(next, undefined, 'update');
        ctx.engine.replace(coll!, doc, next, ctx.ops);
        nModified++;
      }
    } catch (err) {
      writeErrors.push(writeErrorOf(i, toCommandError(err)));
      if (ordered) break;
    }
  }
  const reply: Document = { n, nModified };
  if (upserted.length) reply.upserted = upserted;
  if (writeErrors.length) reply.writeErrors = writeErrors;
  reply.ok = 1;
  return reply;
};

export const deleteCommand: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, 'delete');
  const statements = batchOf(cmd, 'deletes');
  const ordered = cmd.ordered !== false;
  const writeErrors: Document[] = [];
  let n = 0;
  for (let i = 0; i < statements.length; i++) {
    try {
      const st = statements[i];
      if (!isPlainObject(st)) throw new CommandError(ErrorCodes.TypeMismatch, 'delete statements must be objects');
      const q = st.q ?? {};
      if (!isPlainObject(q))
        throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'delete.deletes.q' is the wrong type, expected type 'object'");
      if (st.limit !== 0 && st.limit !== 1) {
        throw new CommandError(ErrorCodes.FailedToParse, `The limit field in delete objects must be 0 or 1. Got ${String(st.limit)}`);
      }
      warnCollation(cmd, ctx, st);
      const query = lazyFilter(q);
      const coll = ctx.engine.get(ctx.db, name);
      const matched = selectDocs(coll, q, query, st.limit === 1 ? 1 : Infinity);
      for (const doc of matched) {
        ctx.engine.remove(coll!, doc, ctx.ops);
        n++;
      }
    } catch (err) {
      writeErrors.push(writeErrorOf(i, toCommandError(err)));
      if (ordered) break;
    }
  }
  return writeErrors.length ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
};

export const findAndModify: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, Object.keys(cmd)[0]);
  warnCollation(cmd, ctx);
  const filter = optionalDocument(cmd, 'query') ?? {};
  const query = lazyFilter(filter);
  const sort = parseSort(cmd.sort);
  const projector = compileProjection(cmd.fields);
  const remove = cmd.remove === true;
  const hasUpdate = cmd.update !== undefined && cmd.update !== null;
  if (remove && hasUpdate) throw new CommandError(ErrorCodes.FailedToParse, 'Cannot specify both an update and remove=true');
  if (!remove && !hasUpdate) throw new CommandError(ErrorCodes.FailedToParse, 'Either an update or remove=true must be specified');
  if (remove && cmd.upsert === true) throw new CommandError(ErrorCodes.FailedToParse, 'Cannot specify both upsert=true and remove=true');
  if (remove && cmd.new === true)
    throw new CommandError(
      ErrorCodes.FailedToParse,
      "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document",
    );
  const arrayFilters = cmd.arrayFilters as Document[] | undefined;
  if (hasUpdate) validateUpdate(cmd.update);
  const coll = ctx.engine.get(ctx.db, name);
  const matched = sort ? selectSorted(coll, filter, query, sort, 1) : selectDocs(coll, filter, query, 1);
  const doc = matched[0];
  const present = (d: Document | undefined) => (d === undefined ? null : projector ? projector(d) : d);

  if (remove) {
    if (!doc) return { lastErrorObject: { n: 0 }, value: null, ok: 1 };
    ctx.engine.remove(coll!, doc, ctx.ops);
    return { lastErrorObject: { n: 1 }, value: present(doc), ok: 1 };
  }
  const u = cmd.update as UpdateSpec;
  if (!doc) {
    if (cmd.upsert !== true) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
    const inserted = buildUpsert(filter, u, arrayFilters);
    checkSize(inserted, undefined, 'update');
    const target = ctx.engine.ensure(ctx.db, name, ctx.ops).coll;
    ctx.engine.insert(target, inserted, ctx.ops);
    return {
      lastErrorObject: { n: 1, updatedExisting: false, upserted: inserted._id },
      value: cmd.new === true ? present(inserted) : null,
      ok: 1,
    };
  }
  const next = applyUpdate(doc, u, { arrayFilters, query: filter });
  if (next !== doc) {
    checkSize(next, undefined, 'update');
    ctx.engine.replace(coll!, doc, next, ctx.ops);
  }
  return { lastErrorObject: { n: 1, updatedExisting: true }, value: present(cmd.new === true ? next : doc), ok: 1 };
};

export const count: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, 'count');
  warnCollation(cmd, ctx);
  const filter = optionalDocument(cmd, 'query') ?? {};
  const query = lazyFilter(filter);
  const skip = nonNegative(cmd, 'skip') ?? 0;
  const rawLimit = typeof cmd.limit === 'number' ? Math.abs(cmd.limit) : 0;
  const coll = ctx.engine.get(ctx.db, name);
  let n = Object.keys(filter).length === 0 ? (coll?.docs.size ?? 0) : countDocs(coll, filter, query);
  n = Math.max(0, n - skip);
  if (rawLimit) n = Math.min(n, rawLimit);
  return { n, ok: 1 };
};

export const distinct: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, 'distinct');
  warnCollation(cmd, ctx);
  const key = cmd.key;
  if (typeof key !== 'string')
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field 'distinct.key' is the wrong type '${bsonTypeName(key)}', expected type 'string'`,
    );
  const filter = optionalDocument(cmd, 'query') ?? {};
  const query = lazyFilter(filter);
  const seen = new Map<string, unknown>();
  for (const doc of selectDocs(ctx.engine.get(ctx.db, name), filter, query)) {
    for (const v of pathValues(doc, key)) {
      for (const item of Array.isArray(v) ? v : [v]) {
        if (item === undefined) continue;
        const k = canonicalKey(item);
        if (!seen.has(k)) seen.set(k, item);
      }
    }
  }
  return { values: [...seen.values()], ok: 1 };
};
