/**
 * Native `$group` and `$bucket` for the expressions and accumulators applications group by most: field paths,
 * literals, `$cond`, `$ifNull`, comparisons, `$and`/`$or`/`$not`, `$add`/`$subtract` (numbers and dates), and
 * `$sum`/`$avg`/`$min`/`$max`/`$first`/`$last`/`$count`. A report grouping a year of documents runs here in
 * milliseconds (mingo needs seconds, and orders a date after null the wrong way round in `$gt`).
 *
 * Anything outside that subset — other operators, `$$` variables, arrays along a field path, 64-bit or decimal
 * numbers in arithmetic — throws `Unsupported`, and the caller runs the stage through mingo instead.
 */
import { Decimal128, type Document, Long, MinKey } from 'bson';
import { CommandError } from './errors';
import { canonicalKey, compareValues, isPlainObject } from './values';

/** The stage (or one document's values) is outside the native subset: run it through mingo. */
export class Unsupported extends Error {}

/** An aggregation expression; `undefined` stands for a missing value, which is not null. */
type Expr = (doc: Document) => unknown;

const unsupported = (what: string): never => {
  throw new Unsupported(what);
};

/** mongod's coerceToBool: false, null, missing and numeric zero are false; everything else is true. */
function truthy(v: unknown): boolean {
  if (v === undefined || v === null || v === false) return false;
  if (typeof v === 'number') return v !== 0;
  if (v instanceof Long || v instanceof Decimal128) return unsupported('64-bit or decimal truth value');
  return true;
}

/**
 * Aggregation order: a missing value sorts before null, then BSON order. Two numbers, two strings, two dates
 * and comparisons with null (a report's "is there a reply") are answered without the general type dispatch.
 */
function compareAgg(a: unknown, b: unknown): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b)) return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  // Only MinKey sorts below null.
  if (b === null) return a === null ? 0 : a instanceof MinKey ? -1 : 1;
  if (a === null) return b instanceof MinKey ? 1 : -1;
  return compareValues(a, b);
}

function fieldPath(path: string): Expr {
  if (path.startsWith('$$')) return path === '$$ROOT' || path === '$$CURRENT' ? (doc) => doc : unsupported(`variable ${path}`);
  const parts = path.slice(1).split('.');
  if (parts.some((p) => p === '' || p in Object.prototype)) return unsupported(`field path ${path}`);
  if (parts.length === 1) {
    // A top-level field (the common case): a stored document is always a plain object.
    const [field] = parts;
    return (doc) => doc[field];
  }
  return (doc) => {
    let cur: unknown = doc;
    for (const part of parts) {
      if (Array.isArray(cur)) return unsupported('array on a field path');
      if (!isPlainObject(cur)) return undefined;
      cur = cur[part];
    }
    return cur;
  };
}

function args(spec: unknown, op: string, min: number, max = min): unknown[] {
  const list = Array.isArray(spec) ? spec : [spec];
  if (list.length < min || list.length > max) return unsupported(`${op} with ${list.length} arguments`);
  return list;
}

const COMPARE: Record<string, (c: number) => boolean> = {
  $eq: (c) => c === 0,
  $ne: (c) => c !== 0,
  $gt: (c) => c > 0,
  $gte: (c) => c >= 0,
  $lt: (c) => c < 0,
  $lte: (c) => c <= 0,
};

function number(v: unknown): number | Date | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' || v instanceof Date) return v;
  return unsupported('arithmetic on a value that is not a number or a date');
}

function operator(op: string, spec: unknown): Expr {
  if (op in COMPARE) {
    const test = COMPARE[op];
    const [a, b] = args(spec, op, 2).map(compileExpression);
    return (doc) => test(compareAgg(a(doc), b(doc)));
  }
  switch (op) {
    case '$literal':
      return () => spec;
    case '$cond': {
      const parts = isPlainObject(spec) ? [spec.if, spec.then, spec.else] : args(spec, op, 3);
      if (isPlainObject(spec) && (!('if' in spec) || !('then' in spec) || !('else' in spec) || Object.keys(spec).length !== 3)) {
        return unsupported('$cond without if, then and else');
      }
      const [test, then, otherwise] = parts.map(compileExpression);
      return (doc) => (truthy(test(doc)) ? then(doc) : otherwise(doc));
    }
    case '$ifNull': {
      const list = args(spec, op, 2, Infinity).map(compileExpression);
      return (doc) => {
        for (let i = 0; i < list.length - 1; i++) {
          const v = list[i](doc);
          if (v !== undefined && v !== null) return v;
        }
        return list[list.length - 1](doc);
      };
    }
    case '$and':
    case '$or': {
      const list = args(spec, op, 0, Infinity).map(compileExpression);
      // $and stops at the first false, $or at the first true.
      const stopAt = op === '$or';
      return (doc) => {
        for (const e of list) if (truthy(e(doc)) === stopAt) return stopAt;
        return !stopAt;
      };
    }
    case '$not': {
      const [inner] = args(spec, op, 1).map(compileExpression);
      return (doc) => !truthy(inner(doc));
    }
    case '$add': {
      const list = args(spec, op, 0, Infinity).map(compileExpression);
      return (doc) => {
        let sum = 0;
        let date = false;
        for (const e of list) {
          const v = number(e(doc));
          if (v === null) return null;
          if (v instanceof Date) {
            if (date) return unsupported('$add of two dates');
            date = true;
            sum += v.getTime();
          } else sum += v;
        }
        return date ? new Date(sum) : sum;
      };
    }
    case '$subtract': {
      const [a, b] = args(spec, op, 2).map(compileExpression);
      return (doc) => {
        const x = number(a(doc));
        const y = number(b(doc));
        if (x === null || y === null) return null;
        if (x instanceof Date) return y instanceof Date ? x.getTime() - y.getTime() : new Date(x.getTime() - y);
        return y instanceof Date ? unsupported('a number minus a date') : x - y;
      };
    }
    default:
      return unsupported(`operator ${op}`);
  }
}

/** Compiles an aggregation expression, or throws Unsupported. */
export function compileExpression(spec: unknown): Expr {
  if (typeof spec === 'string') return spec.startsWith('$') ? fieldPath(spec) : () => spec;
  if (Array.isArray(spec)) return unsupported('array expression');
  if (!isPlainObject(spec)) return () => spec;
  const keys = Object.keys(spec);
  if (keys.length === 1 && keys[0].startsWith('$')) return operator(keys[0], spec[keys[0]]);
  if (keys.some((k) => k.startsWith('$') || k.includes('.'))) return unsupported('expression object');
  const fields = keys.map((k) => [k, compileExpression(spec[k])] as const);
  return (doc) => {
    const out: Document = {};
    for (const [k, e] of fields) {
      const v = e(doc);
      if (v !== undefined) out[k] = v;
    }
    return out;
  };
}

/** One accumulator's state per group. */
interface Accumulator {
  add(doc: Document): void;
  result(): unknown;
}

function numeric(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v instanceof Long || v instanceof Decimal128) return unsupported('64-bit or decimal sum');
  return undefined;
}

/** A factory of accumulators for `{ $op: expression }`. */
function compileAccumulator(spec: unknown): () => Accumulator {
  if (!isPlainObject(spec) || Object.keys(spec).length !== 1) return unsupported('accumulator');
  const [op] = Object.keys(spec);
  const arg = spec[op];
  if (op === '$count') {
    if (!isPlainObject(arg) || Object.keys(arg).length) return unsupported('$count with arguments');
    return () => {
      let n = 0;
      return { add: () => void n++, result: () => n };
    };
  }
  if (op === '$sum') {
    // `$sum: 1` counts, and `$sum: { $cond: [test, 1, 0] }` counts the documents passing the test.
    if (typeof arg === 'number') {
      return () => {
        let n = 0;
        return { add: () => void (n += arg), result: () => n };
      };
    }
    const cond = isPlainObject(arg) && Object.keys(arg).length === 1 && Array.isArray(arg.$cond) ? arg.$cond : undefined;
    if (cond?.length === 3 && cond[1] === 1 && cond[2] === 0) {
      const test = compileExpression(cond[0]);
      return () => {
        let n = 0;
        return { add: (doc) => void (truthy(test(doc)) && n++), result: () => n };
      };
    }
  }
  const e = compileExpression(arg);
  switch (op) {
    case '$sum':
      return () => {
        let sum = 0;
        return {
          add: (doc) => {
            sum += numeric(e(doc)) ?? 0;
          },
          result: () => sum,
        };
      };
    case '$avg':
      return () => {
        let sum = 0;
        let n = 0;
        return {
          add: (doc) => {
            const v = numeric(e(doc));
            if (v === undefined) return;
            sum += v;
            n++;
          },
          result: () => (n ? sum / n : null),
        };
      };
    case '$min':
    case '$max': {
      const sign = op === '$min' ? -1 : 1;
      return () => {
        let best: unknown;
        return {
          add: (doc) => {
            const v = e(doc);
            if (v === undefined || v === null) return;
            if (best === undefined || compareValues(v, best) * sign > 0) best = v;
          },
          result: () => (best === undefined ? null : best),
        };
      };
    }
    case '$first':
    case '$last': {
      const first = op === '$first';
      return () => {
        let seen = false;
        let value: unknown = null;
        return {
          add: (doc) => {
            if (first && seen) return;
            seen = true;
            const v = e(doc);
            value = v === undefined ? null : v;
          },
          result: () => value,
        };
      };
    }
    default:
      return unsupported(`accumulator ${op}`);
  }
}

type Outputs = Array<readonly [string, () => Accumulator]>;

function compileOutputs(spec: Document): Outputs {
  return Object.keys(spec).map((field) => {
    if (field.startsWith('$') || field.includes('.')) return unsupported(`output field ${field}`);
    return [field, compileAccumulator(spec[field])] as const;
  });
}

interface Group {
  id: unknown;
  accs: Accumulator[];
}

function collect(input: Iterable<Document>, outputs: Outputs, keyOf: (doc: Document) => unknown): Group[] {
  const groups: Group[] = [];
  // Strings, booleans and null are their own keys; other values go by their canonical key (1, 1.0 and Long 1 are one group).
  const plain = new Map<unknown, Group>();
  const canonical = new Map<string, Group>();
  for (const doc of input) {
    const id = keyOf(doc);
    const simple = id === null || typeof id === 'string' || typeof id === 'boolean';
    const key = simple ? undefined : canonicalKey(id);
    let group = simple ? plain.get(id) : canonical.get(key as string);
    if (!group) {
      group = { id, accs: outputs.map(([, make]) => make()) };
      groups.push(group);
      if (simple) plain.set(id, group);
      else canonical.set(key as string, group);
    }
    const { accs } = group;
    for (let i = 0; i < accs.length; i++) accs[i].add(doc);
  }
  return groups;
}

function present(groups: Group[], outputs: Outputs): Document[] {
  return groups.map((g) => {
    const out: Document = { _id: g.id };
    outputs.forEach(([field], i) => {
      out[field] = g.accs[i].result();
    });
    return out;
  });
}

/** Runs `{ $group: spec }` natively, or throws Unsupported. */
export function nativeGroup(spec: unknown, input: Iterable<Document>): Document[] {
  if (!isPlainObject(spec) || !('_id' in spec)) return unsupported('$group without _id');
  const { _id, ...rest } = spec;
  const id = compileExpression(_id);
  const outputs = compileOutputs(rest);
  const keyOf = (doc: Document) => {
    const v = id(doc);
    return v === undefined ? null : v;
  };
  return present(collect(input, outputs, keyOf), outputs);
}

/**
 * Runs `{ $bucket: spec }` natively (each document into the bucket whose inclusive lower boundary is the last
 * one at or below its value, found by binary search), or throws Unsupported.
 */
export function nativeBucket(spec: unknown, input: Iterable<Document>): Document[] {
  if (!isPlainObject(spec)) return unsupported('$bucket');
  const { groupBy, boundaries, output } = spec;
  if (!Array.isArray(boundaries) || boundaries.length < 2) return unsupported('$bucket boundaries');
  if (!(typeof groupBy === 'string' && groupBy.startsWith('$')) && !isPlainObject(groupBy)) return unsupported('$bucket groupBy');
  for (let i = 1; i < boundaries.length; i++) {
    if (bracketOf(boundaries[i]) !== bracketOf(boundaries[0]) || compareValues(boundaries[i - 1], boundaries[i]) >= 0) {
      return unsupported('$bucket boundaries out of order');
    }
  }
  if (output !== undefined && !isPlainObject(output)) return unsupported('$bucket output');
  const by = compileExpression(groupBy);
  const outputs = compileOutputs(output ?? { count: { $sum: 1 } });
  const hasDefault = 'default' in spec;
  const rank = bracketOf(boundaries[0]);
  // Dates and plain numbers compare as numbers (a report's days are dates): no per-comparison type dispatch.
  const fast = rank === 'date' || boundaries.every((b) => typeof b === 'number' && !Number.isNaN(b));
  const keys = fast ? Float64Array.from(boundaries, (b: number | Date) => (b instanceof Date ? b.getTime() : b)) : undefined;
  const last = boundaries.length - 1;
  /** Whether boundary `i` is at or below `v` (`x`: `v` as a number when the fast comparison applies). */
  const atOrBelow = (i: number, v: unknown, x: number | undefined) =>
    keys && x !== undefined ? keys[i] <= x : compareValues(boundaries[i], v) <= 0;
  /** The position of the last boundary at or below `v` (binary search), or -1 when `v` lies outside them. */
  const bucketOf = (v: unknown): number => {
    if (v === undefined || v === null || bracketOf(v) !== rank) return -1;
    const x = typeof v === 'number' ? v : v instanceof Date ? v.getTime() : undefined;
    if (!atOrBelow(0, v, x) || atOrBelow(last, v, x)) return -1;
    let lo = 0;
    let hi = last - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (atOrBelow(mid, v, x)) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  // One group per boundary (by position: no key to compute per document), and the default group.
  const groups: (Group | undefined)[] = new Array(boundaries.length);
  const make = () => outputs.map(([, m]) => m());
  for (const doc of input) {
    const at = bucketOf(by(doc));
    if (at < 0 && !hasDefault) {
      throw new CommandError(40066, '$switch could not find a matching branch for an input, and no default was specified.');
    }
    const slot = at < 0 ? last : at;
    let group = groups[slot];
    if (!group) {
      group = { id: at < 0 ? spec.default : boundaries[at], accs: make() };
      groups[slot] = group;
    }
    const { accs } = group;
    for (let i = 0; i < accs.length; i++) accs[i].add(doc);
  }
  const found = groups.filter((g): g is Group => g !== undefined);
  return present(found, outputs).sort((a, b) => compareValues(a._id, b._id));
}

/** The comparison bracket of a boundary: all numbers share one, and so on for each BSON type. */
function bracketOf(v: unknown): string {
  if (typeof v === 'number' || v instanceof Long || v instanceof Decimal128 || typeof v === 'bigint') return 'number';
  if (v instanceof Date) return 'date';
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (isPlainObject(v)) return 'object';
  return typeof v === 'object' ? ((v as { _bsontype?: string })._bsontype ?? 'object') : typeof v;
}
