/**
 * A native matcher for the filters applications send most (equality, comparisons, $in/$nin, $exists, regular
 * expressions, $and/$or), an order of magnitude faster than mingo on collection scans. Clauses outside that
 * subset, and every null comparison (whose rules around missing fields and arrays are subtle), go to mingo.
 */
import { Decimal128, type Document, Long, ObjectId } from 'bson';
import { canonicalKey, compareValues, isPlainObject, pathValues } from './values';

export type Predicate = (doc: Document) => boolean;

/** The type bracket a comparison operator stays within (mongod never compares a number with a string). */
function bracket(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isNaN(v) ? undefined : 'number';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (v instanceof Date) return 'date';
  if (v instanceof ObjectId) return 'objectid';
  return undefined;
}

function bracketOfValue(v: unknown): string | undefined {
  if (typeof v === 'number' || v instanceof Long || v instanceof Decimal128) return 'number';
  return bracket(v);
}

/** Whether any value the path reaches satisfies `pred`; a leaf array offers itself and each of its elements. */
function some(doc: Document, path: string, simple: string[] | undefined, pred: (c: unknown) => boolean): boolean {
  if (simple) {
    let cur: unknown = doc;
    let plain = true;
    for (const part of simple) {
      if (cur === null || cur === undefined || typeof cur !== 'object') {
        cur = undefined;
        break;
      }
      if (Array.isArray(cur)) {
        plain = false;
        break;
      }
      cur = (cur as Document)[part];
    }
    if (plain) return pred(cur) || (Array.isArray(cur) && cur.some(pred));
  }
  for (const v of pathValues(doc, path)) {
    if (pred(v) || (Array.isArray(v) && v.some(pred))) return true;
  }
  return false;
}

function isEqualityValue(v: unknown): boolean {
  return v !== null && v !== undefined && !(v instanceof RegExp) && !(isPlainObject(v) && Object.keys(v).some((k) => k.startsWith('$')));
}

/** One operator: true when some reached value satisfies `pred` (or, negated, when none does). */
interface Op {
  pred: (c: unknown) => boolean;
  negate: boolean;
}

function equalsPred(v: unknown): (c: unknown) => boolean {
  if (typeof v === 'string') return (c) => c === v;
  if (typeof v === 'boolean') return (c) => c === v;
  if (typeof v === 'number' && Number.isFinite(v)) {
    const key = canonicalKey(v);
    return (c) =>
      c === v || (typeof c === 'object' && c !== null && (c instanceof Long || c instanceof Decimal128) && canonicalKey(c) === key);
  }
  if (v instanceof Date) {
    const t = v.getTime();
    return (c) => c instanceof Date && c.getTime() === t;
  }
  if (v instanceof ObjectId) {
    const hex = v.toHexString();
    return (c) => c instanceof ObjectId && c.toHexString() === hex;
  }
  const key = canonicalKey(v);
  return (c) => c !== undefined && canonicalKey(c) === key;
}

function inPred(list: unknown[]): (c: unknown) => boolean {
  if (list.every((v) => typeof v === 'string')) {
    const set = new Set(list as string[]);
    return (c) => typeof c === 'string' && set.has(c);
  }
  const keys = new Set(list.map(canonicalKey));
  return (c) => c !== undefined && keys.has(canonicalKey(c));
}

function comparePred(op: string, v: unknown): ((c: unknown) => boolean) | undefined {
  const b = bracket(v);
  if (!b) return undefined;
  const ok =
    op === '$gt'
      ? (c: number) => c > 0
      : op === '$gte'
        ? (c: number) => c >= 0
        : op === '$lt'
          ? (c: number) => c < 0
          : (c: number) => c <= 0;
  // Specialized per type: this runs once per document on range scans.
  if (typeof v === 'number') {
    return (c) =>
      typeof c === 'number' ? !Number.isNaN(c) && ok(c < v ? -1 : c > v ? 1 : 0) : bracketOfValue(c) === b && ok(compareValues(c, v));
  }
  if (typeof v === 'string') return (c) => typeof c === 'string' && ok(c < v ? -1 : c > v ? 1 : 0);
  if (v instanceof Date) {
    const t = v.getTime();
    return (c) => c instanceof Date && ok(Math.sign(c.getTime() - t));
  }
  return (c) => bracketOfValue(c) === b && ok(compareValues(c, v));
}

function regexPred(re: RegExp): (c: unknown) => boolean {
  const plain = new RegExp(re.source, re.flags.replace('g', '').replace('y', ''));
  return (c) => typeof c === 'string' && plain.test(c);
}

/** Compiles the condition on one field, or undefined when it is outside the native subset. */
function compileCondition(cond: unknown): Op[] | undefined {
  if (cond instanceof RegExp) return [{ pred: regexPred(cond), negate: false }];
  if (!isPlainObject(cond) || !Object.keys(cond).some((k) => k.startsWith('$'))) {
    return isEqualityValue(cond) ? [{ pred: equalsPred(cond), negate: false }] : undefined;
  }
  const ops: Op[] = [];
  for (const [name, arg] of Object.entries(cond)) {
    let op: Op | undefined;
    switch (name) {
      case '$eq':
      case '$ne':
        if (isEqualityValue(arg)) op = { pred: equalsPred(arg), negate: name === '$ne' };
        break;
      case '$in':
      case '$nin':
        if (Array.isArray(arg) && arg.every(isEqualityValue)) op = { pred: inPred(arg), negate: name === '$nin' };
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const pred = comparePred(name, arg);
        if (pred) op = { pred, negate: false };
        break;
      }
      case '$exists':
        if (typeof arg === 'boolean' || typeof arg === 'number') op = { pred: (c) => c !== undefined, negate: !arg };
        break;
      case '$regex':
        if (arg instanceof RegExp && cond.$options === undefined) op = { pred: regexPred(arg), negate: false };
        else if (typeof arg === 'string' && (cond.$options === undefined || typeof cond.$options === 'string')) {
          try {
            op = { pred: regexPred(new RegExp(arg, (cond.$options as string | undefined) ?? '')), negate: false };
          } catch {
            return undefined;
          }
        }
        break;
      case '$options':
        if ('$regex' in cond) continue;
        return undefined;
      default:
        return undefined;
    }
    if (!op) return undefined;
    ops.push(op);
  }
  return ops;
}

/**
 * `{field: null}` (the soft-delete and "not used yet" idiom): null or missing when no array lies on the path;
 * with arrays the rules get subtle, so those documents go to `viaMingo`.
 */
function nullEquality(parts: string[], viaMingo: Predicate): Predicate {
  return (doc) => {
    let cur: unknown = doc;
    for (const part of parts) {
      if (cur === null || cur === undefined || typeof cur !== 'object') return true;
      if (Array.isArray(cur)) return viaMingo(doc);
      cur = (cur as Document)[part];
    }
    if (Array.isArray(cur)) return viaMingo(doc);
    return cur === null || cur === undefined;
  };
}

/**
 * Compiles a filter clause by clause: natively where the clause is in the subset, through `fallback` (mingo)
 * otherwise. A filter is the conjunction of its clauses, so mixing the two keeps its meaning.
 */
export function compileClauses(filter: Document, fallback: (clause: Document) => Predicate): Predicate {
  const parts: Predicate[] = [];
  for (const [field, cond] of Object.entries(filter)) {
    if (field === '$comment') continue;
    if ((field === '$and' || field === '$or') && Array.isArray(cond) && cond.length > 0 && cond.every(isPlainObject)) {
      const branches = (cond as Document[]).map((branch) => compileClauses(branch, fallback));
      parts.push(field === '$and' ? (doc) => branches.every((b) => b(doc)) : (doc) => branches.some((b) => b(doc)));
      continue;
    }
    const split = field.split('.');
    // Numeric parts index into arrays; pathValues knows how, the fast walk does not.
    const simple = split.some((p) => /^\d+$/.test(p)) ? undefined : split;
    if (simple && (cond === null || (isPlainObject(cond) && Object.keys(cond).length === 1 && cond.$eq === null))) {
      // mingo is compiled only if a document with an array on the path ever needs it: most never do.
      let viaMingo: Predicate | undefined;
      parts.push(nullEquality(simple, (doc) => (viaMingo ??= fallback({ [field]: cond }))(doc)));
      continue;
    }
    const ops = field.startsWith('$') ? undefined : compileCondition(cond);
    if (!ops) {
      parts.push(fallback({ [field]: cond }));
      continue;
    }
    for (const { pred, negate } of ops) {
      parts.push(negate ? (doc) => !some(doc, field, simple, pred) : (doc) => some(doc, field, simple, pred));
    }
  }
  if (parts.length === 0) return () => true;
  if (parts.length === 1) return parts[0];
  return (doc) => parts.every((p) => p(doc));
}
