import type { Document } from 'bson';
import * as BSON from 'bson';
import type { Collection, SortSpec } from '../collection';
import type { Engine } from '../engine';
import { CommandError, ErrorCodes } from '../errors';
import { type LazyQuery, matches, sortDocs } from '../query';
import type { WriteOp } from '../storage';

export interface CommandContext {
  engine: Engine;
  /** The command's `$db`. */
  db: string;
  /** Writes this command made, appended to storage before the reply leaves. */
  ops: WriteOp[];
  connectionId: number;
  /** Byte sizes of the documents of each kind-1 sequence (OP_MSG), by identifier. */
  sequenceSizes: Map<string, number[]>;
  remoteAddress: string;
  log: (msg: string) => void;
}

export type Handler = (cmd: Document, ctx: CommandContext) => Document;

/** The collection a command names in its first field (`{ find: 'users' }`). */
export function collectionName(cmd: Document, field: string): string {
  const name = cmd[field];
  if (typeof name !== 'string') {
    throw new CommandError(ErrorCodes.InvalidNamespace, `collection name has invalid type ${bsonTypeName(name)}`);
  }
  if (name.length === 0) throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid namespace specified '${cmd.$db}.'`);
  return name;
}

export function bsonTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'double';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return (v as { _bsontype?: string })._bsontype?.toLowerCase() ?? 'object';
  return typeof v;
}

/** A non-negative integer option (skip, limit, batchSize), with mongod's complaint otherwise. */
export function nonNegative(cmd: Document, field: string): number | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v instanceof BSON.Long ? v.toNumber() : NaN;
  if (Number.isNaN(n)) {
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field '${field}' is the wrong type '${bsonTypeName(v)}', expected types '[long, int, decimal, double]'`,
    );
  }
  if (n < 0) throw new CommandError(51024, `BSON field '${field}' value must be >= 0, actual value '${n}'`);
  return Math.trunc(n);
}

export function optionalDocument(cmd: Document, field: string): Document | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw new CommandError(ErrorCodes.TypeMismatch, `BSON field '${field}' is the wrong type '${bsonTypeName(v)}', expected type 'object'`);
  }
  return v as Document;
}

/**
 * Documents of `coll` matching `filter`, index-assisted; stops after `stopAfter` matches when the caller
 * needs no more (unsorted finds with a limit).
 */
export function selectDocs(coll: Collection | undefined, filter: Document, lazy: LazyQuery, stopAfter = Infinity): Document[] {
  if (!coll) {
    lazy();
    return [];
  }
  const candidates = coll.candidates(filter);
  const query = candidates.exact ? undefined : lazy();
  const out: Document[] = [];
  for (const doc of candidates.docs) {
    if (!query || matches(query, doc)) {
      out.push(doc);
      if (out.length >= stopAfter) break;
    }
  }
  return out;
}

/**
 * Documents of `coll` matching `filter` in `sort` order, at most `keep` of them: read in index order and
 * stopped early when an index gives the order, else collected and sorted (top-k when `keep` is finite).
 */
export function selectSorted(coll: Collection | undefined, filter: Document, lazy: LazyQuery, sort: SortSpec, keep = Infinity): Document[] {
  if (!coll) {
    lazy();
    return [];
  }
  const candidates = coll.candidates(filter, sort, keep !== Infinity);
  const query = candidates.exact ? undefined : lazy();
  const out: Document[] = [];
  for (const doc of candidates.docs) {
    if (!query || matches(query, doc)) {
      out.push(doc);
      if (candidates.ordered && out.length >= keep) break;
    }
  }
  return candidates.ordered ? out : sortDocs(out, sort, keep);
}

/** Counts matches without materializing them when an index answers the filter exactly. */
export function countDocs(coll: Collection | undefined, filter: Document, lazy: LazyQuery): number {
  if (!coll) {
    lazy();
    return 0;
  }
  const candidates = coll.candidates(filter);
  if (candidates.exact) return candidates.size;
  const query = lazy();
  let n = 0;
  for (const doc of candidates.docs) if (matches(query, doc)) n++;
  return n;
}

export function writeErrorOf(index: number, err: CommandError): Document {
  return { index, code: err.code, errmsg: err.message, ...err.extra };
}
