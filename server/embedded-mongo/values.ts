/**
 * Value helpers shared by indexes, sorting and updates: canonical keys (equal under MongoDB's equality rules
 * ⇔ same string), MongoDB's cross-type sort order, dotted-path access and copying.
 */
import { Binary, Decimal128, type Document, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';

function isPlainObject(v: unknown): v is Document {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export { isPlainObject };

/** A string identifying a value under MongoDB equality: 1, 1.0 and Long(1) share one key, 'a' and ['a'] do not. */
export function canonicalKey(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return 's' + v;
    case 'number':
      return 'n' + (Object.is(v, -0) ? '0' : String(v));
    case 'boolean':
      return v ? 'b1' : 'b0';
    case 'bigint':
      return 'n' + v.toString();
    case 'undefined':
      return 'z';
    default:
      // Objects and symbols: told apart below.
      break;
  }
  if (v === null) return 'z';
  if (v instanceof ObjectId) return 'o' + v.toHexString();
  if (v instanceof Date) return 'd' + v.getTime();
  if (Array.isArray(v)) {
    let out = '[';
    for (const item of v) {
      const inner = canonicalKey(item);
      out += inner.length + ':' + inner;
    }
    return out + ']';
  }
  if (isPlainObject(v)) {
    let out = '{';
    for (const k of Object.keys(v)) {
      const inner = canonicalKey(v[k]);
      out += k.length + ':' + k + inner.length + ':' + inner;
    }
    return out + '}';
  }
  if (v instanceof Long) return 'n' + v.toString();
  if (v instanceof Decimal128) return 'n' + Number(v.toString());
  if (v instanceof Binary) return 'x' + v.sub_type + ':' + Buffer.from(v.buffer).toString('base64');
  if (v instanceof RegExp) return 'r' + v.source + '/' + v.flags;
  if (v instanceof Timestamp) return 't' + v.toString();
  if (v instanceof MinKey) return '-';
  if (v instanceof MaxKey) return '+';
  if (typeof (v as { toHexString?: unknown }).toHexString === 'function') {
    return 'o' + (v as { toHexString(): string }).toHexString();
  }
  return 'u' + String(v);
}

/** MongoDB's comparison/sort order between BSON types (MinKey < null < numbers < strings < ...). */
function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 1;
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return 2;
    case 'string':
      return 3;
    case 'boolean':
      return 8;
    default:
      // Objects: ranked by their BSON type below.
      break;
  }
  if (v instanceof MinKey) return 0;
  if (v instanceof MaxKey) return 100;
  if (v instanceof Long || v instanceof Decimal128) return 2;
  if (Array.isArray(v)) return 5;
  if (v instanceof Binary) return 6;
  if (v instanceof ObjectId) return 7;
  if (v instanceof Date) return 9;
  if (v instanceof Timestamp) return 10;
  if (v instanceof RegExp) return 11;
  return 4;
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Long) return v.toNumber();
  if (v instanceof Decimal128) return Number(v.toString());
  return NaN;
}

/** Compares two BSON values the way mongod orders them in sorts and range predicates. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 2: {
      const x = toNumber(a);
      const y = toNumber(b);
      if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : -1;
      if (Number.isNaN(y)) return 1;
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 3:
      return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
    case 4: {
      const ka = Object.keys(a as Document);
      const kb = Object.keys(b as Document);
      for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
        const c = compareValues((a as Document)[ka[i]], (b as Document)[kb[i]]);
        if (c) return c;
        if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
      }
      return ka.length - kb.length;
    }
    case 5: {
      const xa = a as unknown[];
      const xb = b as unknown[];
      for (let i = 0; i < Math.min(xa.length, xb.length); i++) {
        const c = compareValues(xa[i], xb[i]);
        if (c) return c;
      }
      return xa.length - xb.length;
    }
    case 6:
      return Buffer.compare(Buffer.from((a as Binary).buffer), Buffer.from((b as Binary).buffer));
    case 7: {
      const ha = (a as ObjectId).toHexString();
      const hb = (b as ObjectId).toHexString();
      return ha < hb ? -1 : ha > hb ? 1 : 0;
    }
    case 8:
      return Number(a) - Number(b);
    case 9:
      return Math.sign((a as Date).getTime() - (b as Date).getTime());
    case 10:
      return (a as Timestamp).compare(b as Timestamp);
    default:
      return 0;
  }
}

/**
 * Every value a dotted path reaches, traversing arrays the way indexes and queries do.
 * A missing path yields `undefined` once; arrays are returned whole at the leaf (callers expand them).
 */
export function pathValues(doc: unknown, path: string): unknown[] {
  const parts = path.split('.');
  const out: unknown[] = [];
  const walk = (cur: unknown, i: number): void => {
    if (i === parts.length) {
      out.push(cur);
      return;
    }
    if (Array.isArray(cur)) {
      const idx = /^\d+$/.test(parts[i]) ? Number(parts[i]) : -1;
      if (idx >= 0) {
        walk(cur[idx], i + 1);
        return;
      }
      if (cur.length === 0) {
        out.push(undefined);
        return;
      }
      for (const item of cur) {
        if (item !== null && typeof item === 'object' && !Array.isArray(item)) walk(item, i);
        else out.push(undefined);
      }
      return;
    }
    if (cur === null || typeof cur !== 'object') {
      out.push(undefined);
      return;
    }
    walk((cur as Document)[parts[i]], i + 1);
  };
  walk(doc, 0);
  return out;
}

/** Deep copy of plain objects and arrays; BSON value objects are shared (they are never mutated). */
export function copyDoc<T>(v: T): T {
  if (Array.isArray(v)) return v.map(copyDoc) as T;
  if (isPlainObject(v)) {
    const out: Document = {};
    for (const k of Object.keys(v)) out[k] = copyDoc(v[k]);
    return out as T;
  }
  if (v instanceof Date) return new Date(v.getTime()) as T;
  return v;
}

/** Renders a value the way mongod prints it in error messages (dup key: { email: "a@b.c" }). */
export function formatValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return 'null';
  if (v instanceof ObjectId) return `ObjectId('${v.toHexString()}')`;
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (Array.isArray(v)) return `[ ${v.map(formatValue).join(', ')} ]`;
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return '{}';
    return `{ ${keys.map((k) => `${k}: ${formatValue(v[k])}`).join(', ')} }`;
  }
  return String(v);
}
