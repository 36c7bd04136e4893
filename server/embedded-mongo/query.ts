/** Filters (native matcher, mingo for the rest), sorts and find projections with MongoDB semantics. */
import type { Document } from 'bson';
import { Aggregator, Query } from 'mingo';
import { badValue, CommandError, ErrorCodes } from './errors';
import { compileClauses } from './matcher';
import { compareValues, copyDoc, isPlainObject, pathValues } from './values';

/**
 * Options for every mingo evaluation: no JavaScript ($where, $function, $accumulator) runs inside the server
 * process, whatever a client sends.
 */
export const MINGO_OPTIONS = { scriptEnabled: false } as const;

const TOP_LEVEL_OPERATORS = new Set([
  '$and',
  '$or',
  '$nor',
  '$expr',
  '$where',
  '$text',
  '$comment',
  '$jsonSchema',
  '$alwaysFalse',
  '$alwaysTrue',
]);

/** A compiled filter. */
export interface Matcher {
  test(doc: Document): boolean;
}

const MATCH_ALL: Matcher = { test: () => true };

/** Compiles a filter (natively when it can, else with mingo); throws BadValue for unknown operators as mongod does. */
export function compileFilter(filter: unknown): Matcher {
  if (filter === undefined || filter === null) return MATCH_ALL;
  if (!isPlainObject(filter))
    throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'filter' is the wrong type, expected type 'object'");
  for (const key of Object.keys(filter)) {
    if (key.startsWith('$') && !TOP_LEVEL_OPERATORS.has(key)) throw badValue(`unknown top level operator: ${key}`);
  }
  const { $comment: _comment, ...rest } = filter;
  if (Object.keys(rest).length === 0) return MATCH_ALL;
  return { test: compileClauses(rest, mingoClause) };
}

/** One clause the native matcher does not cover, evaluated by mingo. */
function mingoClause(clause: Document): (doc: Document) => boolean {
  let query: Query;
  try {
    query = new Query(clause, MINGO_OPTIONS);
  } catch (err) {
    const message = (err as Error).message;
    const unknown = /unknown query operator (\$\w+)/i.exec(message);
    throw badValue(unknown ? `unknown operator: ${unknown[1]}` : message);
  }
  return (doc) => query.test(doc);
}

/** A filter compiled on first use: index lookups that answer it exactly never pay for mingo's compilation. */
export type LazyQuery = () => Matcher;

export function lazyFilter(filter: unknown): LazyQuery {
  let query: Matcher | undefined;
  return () => (query ??= compileFilter(filter));
}

/** Runs a compiled filter, turning mingo's evaluation errors into BadValue. */
export function matches(query: Matcher, doc: Document): boolean {
  try {
    return query.test(doc);
  } catch (err) {
    throw badValue((err as Error).message);
  }
}

type SortSpec = Array<[string, 1 | -1]>;

export function parseSort(sort: unknown): SortSpec | undefined {
  if (sort === undefined || sort === null) return undefined;
  if (!isPlainObject(sort)) throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'sort' is the wrong type, expected type 'object'");
  const spec: SortSpec = [];
  for (const [field, dir] of Object.entries(sort)) {
    if ((isPlainObject(dir) && '$meta' in dir) || field === '$natural') continue;
    const n = typeof dir === 'number' ? dir : Number(dir);
    if (n !== 1 && n !== -1) throw new CommandError(15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)');
    spec.push([field, n]);
  }
  return spec.length ? spec : undefined;
}

function sortKey(doc: Document, path: string, parts: string[], dir: 1 | -1): unknown {
  // Without arrays along the path the key is the value itself.
  let cur: unknown = doc;
  for (const part of parts) {
    if (cur === null || cur === undefined || typeof cur !== 'object') {
      cur = undefined;
      break;
    }
    if (Array.isArray(cur)) return arraySortKey(doc, path, dir);
    cur = (cur as Document)[part];
  }
  return Array.isArray(cur) ? arraySortKey(doc, path, dir) : cur;
}

function arraySortKey(doc: Document, path: string, dir: 1 | -1): unknown {
  let best: unknown;
  let first = true;
  for (const v of pathValues(doc, path)) {
    const items = Array.isArray(v) ? (v.length ? v : [undefined]) : [v];
    for (const item of items) {
      if (first || compareValues(item, best) * dir < 0) best = item;
      first = false;
    }
  }
  return best;
}

interface Keyed {
  doc: Document;
  keys: unknown[];
}

/**
 * Sorts like mongod (arrays by their smallest element ascending, largest descending). With `keep`, only the
 * first `keep` documents are needed, so a bounded insertion keeps O(n log k) instead of sorting everything.
 */
export function sortDocs(docs: Document[], spec: SortSpec, keep = Infinity): Document[] {
  const parts = spec.map(([path]) => path.split('.'));
  const cmp = (a: Keyed, b: Keyed): number => {
    for (let i = 0; i < spec.length; i++) {
      const c = compareValues(a.keys[i], b.keys[i]);
      if (c) return c * spec[i][1];
    }
    return 0;
  };
  const keyOf = (doc: Document): Keyed => ({ doc, keys: spec.map(([path, dir], i) => sortKey(doc, path, parts[i], dir)) });
  if (keep * 8 >= docs.length)
    return docs
      .map(keyOf)
      .sort(cmp)
      .map((k) => k.doc);
  const top: Keyed[] = [];
  for (const doc of docs) {
    const item = keyOf(doc);
    if (top.length === keep && cmp(item, top[keep - 1]) >= 0) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(top[mid], item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, item);
    if (top.length > keep) top.pop();
  }
  return top.map((k) => k.doc);
}

interface PathTree {
  [field: string]: PathTree | true;
}

/** A path tree without a prototype: a field named `constructor` or `toString` finds nothing it did not put there. */
const emptyTree = (): PathTree => Object.create(null) as PathTree;

function addPath(tree: PathTree, path: string): void {
  const parts = path.split('.');
  let node = tree;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = node[parts[i]];
    if (next === true) return;
    node = (node[parts[i]] = next ?? emptyTree()) as PathTree;
  }
  node[parts[parts.length - 1]] = true;
}

function include(value: unknown, tree: PathTree): unknown {
  if (Array.isArray(value)) return value.filter((v) => isPlainObject(v) || Array.isArray(v)).map((v) => include(v, tree));
  if (!isPlainObject(value)) return undefined;
  const out: Document = {};
  // Keys, not entries: no [key, value] pair per field of every document a find returns.
  for (const k of Object.keys(value)) {
    const node = tree[k];
    if (node === undefined) continue;
    const v = value[k];
    if (node === true) out[k] = v;
    else {
      const sub = include(v, node);
      if (sub !== undefined) out[k] = sub;
    }
  }
  return out;
}

function exclude(value: unknown, tree: PathTree): unknown {
  if (Array.isArray(value)) return value.map((v) => (isPlainObject(v) || Array.isArray(v) ? exclude(v, tree) : v));
  if (!isPlainObject(value)) return value;
  const out: Document = {};
  for (const k of Object.keys(value)) {
    const node = tree[k];
    if (node === true) continue;
    out[k] = node === undefined ? value[k] : exclude(value[k], node);
  }
  return out;
}

export type Projector = (doc: Document) => Document;

function applySlice(doc: Document, parts: readonly string[], arg: unknown): void {
  let cur: unknown = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!isPlainObject(cur)) return;
    cur = cur[parts[i]];
  }
  if (!isPlainObject(cur)) return;
  const leaf = parts[parts.length - 1];
  const value = cur[leaf];
  if (!Array.isArray(value)) return;
  let skip: number;
  let limit: number;
  if (Array.isArray(arg) && arg.length === 2 && typeof arg[0] === 'number' && typeof arg[1] === 'number') {
    [skip, limit] = arg;
    if (limit <= 0) throw new CommandError(ErrorCodes.BadValue, '$slice limit must be positive');
  } else if (typeof arg === 'number') {
    [skip, limit] = arg >= 0 ? [0, arg] : [arg, -arg];
  } else {
    throw new CommandError(ErrorCodes.BadValue, '$slice only supports numbers and [skip, limit] arrays');
  }
  const start = skip < 0 ? Math.max(0, value.length + skip) : skip;
  cur[leaf] = value.slice(start, start + limit);
}

/** Compiles a find projection: plain inclusion/exclusion natively (keeping field order), operators through mingo. */
export function compileProjection(projection: unknown): Projector | undefined {
  if (projection === undefined || projection === null) return undefined;
  if (!isPlainObject(projection))
    throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'projection' is the wrong type, expected type 'object'");
  const all = Object.entries(projection);
  if (all.length === 0) return undefined;
  // $slice on its own does not turn a projection into an inclusion: the other fields stay (mongod's rule).
  const isSlice = (v: unknown) => isPlainObject(v) && Object.keys(v).length === 1 && '$slice' in v;
  const slices = all.filter(([, v]) => isSlice(v));
  const entries = all.filter(([, v]) => !isSlice(v));
  const simple = entries.every(([k, v]) => !k.includes('$') && (typeof v === 'number' || typeof v === 'boolean'));
  const inclusion = entries.some(([k, v]) => k !== '_id' && Boolean(v));
  if (simple && slices.length && !inclusion) {
    const base = compileProjection(Object.fromEntries(entries.length ? entries : [['_id', 1]]));
    const specs = slices.map(([path, v]) => [path.split('.'), (v as Document).$slice] as const);
    return (doc) => {
      const out = copyDoc(base ? base(doc) : doc);
      for (const [parts, arg] of specs) applySlice(out, parts, arg);
      return out;
    };
  }
  if (!simple || slices.length) {
    const { $comment: _c, ...spec } = projection;
    const agg = new Aggregator([{ $project: spec }], MINGO_OPTIONS);
    return (doc) => {
      try {
        const [out] = agg.run([copyDoc(doc)]) as Document[];
        if (out && '_id' in out) return { _id: out._id, ...out };
        return out ?? {};
      } catch (err) {
        throw badValue((err as Error).message);
      }
    };
  }
  let idMode: boolean | undefined;
  const includes: string[] = [];
  const excludes: string[] = [];
  for (const [k, v] of entries) {
    const on = Boolean(v);
    if (k === '_id') idMode = on;
    else if (on) includes.push(k);
    else excludes.push(k);
  }
  if (includes.length && excludes.length) {
    throw new CommandError(31254, `Cannot do exclusion on field ${excludes[0]} in inclusion projection`);
  }
  if (includes.length) {
    const tree = emptyTree();
    if (idMode !== false) addPath(tree, '_id');
    for (const p of includes) addPath(tree, p);
    return (doc) => include(doc, tree) as Document;
  }
  const tree = emptyTree();
  if (idMode === false) addPath(tree, '_id');
  for (const p of excludes) addPath(tree, p);
  if (idMode === true && excludes.length === 0) return undefined;
  return (doc) => exclude(doc, tree) as Document;
}
