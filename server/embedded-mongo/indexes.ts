/**
 * Secondary indexes: a Map from the canonical key of the indexed value(s) to the set of `_id` keys holding
 * them, so equality and `$in` lookups cost O(1) per value. Compound indexes also keep a map on their leading
 * field. Unique indexes are enforced here.
 */
import type { Document } from 'bson';
import { CommandError, ErrorCodes } from './errors';
import { compileFilter, type Matcher } from './query';
import type { IndexSpec } from './storage';
import { canonicalKey, compareValues, formatValue, pathValues } from './values';

export interface IndexEntry {
  key: string;
  values: unknown[];
}

/** One end of a range on an index field, in value order (not index order). */
export interface Bound {
  value: unknown;
  inclusive: boolean;
}

export interface KeyRange {
  lower?: Bound;
  upper?: Bound;
}

/** An index key with the `_id` key holding it, as kept in the ordered view. */
interface OrderedEntry {
  values: unknown[];
  id: string;
}

function leafValues(doc: Document, path: string): unknown[] {
  const out: unknown[] = [];
  for (const v of pathValues(doc, path)) {
    if (Array.isArray(v)) {
      if (v.length === 0) out.push(undefined);
      else for (const item of v) out.push(item);
    } else {
      out.push(v);
    }
  }
  return out;
}

export class Index {
  readonly fields: string[];
  private readonly paths: string[][];
  readonly unique: boolean;
  readonly sparse: boolean;
  /** Text and geo indexes are kept for listIndexes but never used to answer equality. */
  readonly usable: boolean;
  private readonly partial: Matcher | undefined;
  readonly entries: KeyMap = new Map();
  /** For compound indexes: prefixes[L - 1] maps the key of the first L fields (L < fields.length). */
  readonly prefixes: KeyMap[];
  /** Sort direction of each field (1 or -1; hashed and special fields count as 1 and are not orderable). */
  readonly dirs: number[];
  /** Set once a document had an array on an indexed path; multikey indexes answer no ranges or sorts. */
  multikey = false;
  /**
   * Every key in index order (field directions, then `_id` key), built on the first range or sort that needs
   * it and kept in step with writes afterwards; null until then.
   */
  private ordered: OrderedEntry[] | null = null;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.paths = this.fields.map((f) => f.split('.'));
    this.unique = spec.unique === true;
    this.sparse = spec.sparse === true;
    this.usable = Object.values(spec.key).every((dir) => typeof dir === 'number' || dir === 'hashed');
    this.partial = spec.partialFilterExpression ? compileFilter(spec.partialFilterExpression) : undefined;
    this.prefixes = Array.from({ length: this.fields.length - 1 }, (): KeyMap => new Map());
    this.dirs = Object.values(spec.key).map((dir) => (typeof dir === 'number' && dir < 0 ? -1 : 1));
  }

  /** True when the index can answer ranges and sorts: plain ascending/descending fields, no arrays, no filter. */
  get orderable(): boolean {
    return !this.multikey && !this.partial && Object.values(this.spec.key).every((dir) => typeof dir === 'number');
  }

  get isPartial(): boolean {
    return this.partial !== undefined;
  }

  /** The keys this document has in the index (none when sparse/partial exclude it). */
  entriesFor(doc: Document): IndexEntry[] {
    if (this.partial && !this.partial.test(doc)) return [];
    const simple = this.simpleEntry(doc);
    if (simple !== undefined) return simple;
    this.multikey = true;
    this.ordered = null;
    const perField = this.fields.map((f) => leafValues(doc, f));
    if (this.sparse && perField.every((vals) => vals.every((v) => v === undefined))) return [];
    // Each value's canonical key is worked out once, not once per combination (an array of n elements beside other
    // fields makes n combinations); a combination's key is its parts joined as Index.keyOf joins them.
    const single = this.fields.length === 1;
    let combos: { values: unknown[]; key: string }[] = [{ values: [], key: '' }];
    for (const vals of perField) {
      const encoded = vals.map((raw) => {
        const v = raw === undefined ? null : raw;
        const k = canonicalKey(v);
        return { v, part: single ? k : k.length + ':' + k };
      });
      const next: { values: unknown[]; key: string }[] = [];
      for (const combo of combos) for (const e of encoded) next.push({ values: [...combo.values, e.v], key: combo.key + e.part });
      combos = next;
    }
    const seen = new Set<string>();
    const out: IndexEntry[] = [];
    for (const { values, key } of combos) {
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ key, values });
    }
    return out;
  }

  /**
   * The common case without arrays on the indexed paths: exactly one key, computed without the general
   * multikey expansion (this runs for every document at start-up and on every write).
   */
  private simpleEntry(doc: Document): IndexEntry[] | undefined {
    const values: unknown[] = [];
    let allMissing = true;
    for (const parts of this.paths) {
      let cur: unknown = doc;
      for (const part of parts) {
        if (cur === null || cur === undefined) break;
        if (typeof cur !== 'object' || Array.isArray(cur)) return undefined;
        cur = (cur as Document)[part];
      }
      if (Array.isArray(cur)) return undefined;
      if (cur !== undefined) allMissing = false;
      values.push(cur === undefined ? null : cur);
    }
    if (this.sparse && allMissing) return [];
    return [{ key: Index.keyOf(values), values }];
  }

  static keyOf(values: unknown[]): string {
    if (values.length === 1) return canonicalKey(values[0]);
    let out = '';
    for (const v of values) {
      const k = canonicalKey(v);
      out += k.length + ':' + k;
    }
    return out;
  }

  /** Throws mongod's duplicate key error if `doc` (whose _id key is `idKey`) would collide with another document. */
  checkUnique(ns: string, doc: Document, idKey: string, entries = this.entriesFor(doc)): void {
    if (!this.unique) return;
    for (const entry of entries) {
      for (const other of holdersOf(this.entries, entry.key)) {
        if (other !== idKey) throw duplicateKeyError(ns, this.spec, entry.values);
      }
    }
  }

  add(idKey: string, entries: IndexEntry[]): void {
    for (const entry of entries) addTo(this.entries, entry.key, idKey);
    if (this.ordered) {
      for (const entry of entries) {
        const item = { values: entry.values, id: idKey };
        this.ordered.splice(this.firstAtOrAfter(item), 0, item);
      }
    }
    this.prefixes.forEach((map, i) => {
      for (const k of new Set(entries.map((e) => Index.keyOf(e.values.slice(0, i + 1))))) addTo(map, k, idKey);
    });
  }

  remove(idKey: string, entries: IndexEntry[]): void {
    for (const entry of entries) removeFrom(this.entries, entry.key, idKey);
    if (this.ordered) {
      for (const entry of entries) {
        const at = this.firstAtOrAfter({ values: entry.values, id: idKey });
        if (at < this.ordered.length && this.ordered[at].id === idKey) this.ordered.splice(at, 1);
      }
    }
    this.prefixes.forEach((map, i) => {
      for (const k of new Set(entries.map((e) => Index.keyOf(e.values.slice(0, i + 1))))) removeFrom(map, k, idKey);
    });
  }

  /** Whether two versions of a document hold the same values on every field of this index (and its filter's). */
  sameFields(a: Document, b: Document): boolean {
    if (this.partial) return false;
    for (const parts of this.paths) {
      let x: unknown = a;
      let y: unknown = b;
      for (const part of parts) {
        x = x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Document)[part] : Array.isArray(x) ? x : undefined;
        y = y !== null && typeof y === 'object' && !Array.isArray(y) ? (y as Document)[part] : Array.isArray(y) ? y : undefined;
        if (Array.isArray(x) || Array.isArray(y)) break;
      }
      if (!sameValue(x, y)) return false;
    }
    return true;
  }

  /**
   * When the only difference between two versions of a document on this index is one top-level array of strings,
   * numbers or booleans (the other fields equal scalars, no filter): the keys of the elements that went and came,
   * worked out from those elements alone. undefined otherwise (the caller compares all keys).
   */
  elementChanges(a: Document, b: Document): ElementChanges | undefined {
    if (this.partial || this.sparse) return undefined;
    let at = -1;
    for (let i = 0; i < this.paths.length; i++) {
      const parts = this.paths[i];
      if (parts.length !== 1) return undefined;
      const x = a[parts[0]];
      const y = b[parts[0]];
      if (Array.isArray(x) || Array.isArray(y)) {
        if (at >= 0 || !Array.isArray(x) || !Array.isArray(y) || x.length === 0 || y.length === 0) return undefined;
        if (![...x, ...y].every((v) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v)))) {
          return undefined;
        }
        at = i;
      } else if ((x !== null && typeof x === 'object' && !isScalarObject(x)) || !sameValue(x, y)) return undefined;
    }
    if (at < 0) return undefined;
    const field = this.paths[at][0];
    const was = new Set((a[field] as unknown[]).map(canonicalKey));
    const is = new Set((b[field] as unknown[]).map(canonicalKey));
    const entry = (v: unknown): IndexEntry => {
      const values = this.paths.map((parts, i) => (i === at ? v : (b[parts[0]] ?? null)));
      return { key: Index.keyOf(values), values };
    };
    const distinct = (list: unknown[], keep: (k: string) => boolean) => {
      const seen = new Set<string>();
      return list.filter((v) => {
        const k = canonicalKey(v);
        if (seen.has(k) || !keep(k)) return false;
        seen.add(k);
        return true;
      });
    };
    return {
      at,
      gone: distinct(a[field] as unknown[], (k) => !is.has(k)).map(entry),
      added: distinct(b[field] as unknown[], (k) => !was.has(k)).map(entry),
    };
  }

  /** Applies elementChanges: the went and came keys, and the leading-field keys that hold the array's position. */
  applyElementChanges(idKey: string, { at, gone, added }: ElementChanges): void {
    this.multikey = true;
    this.ordered = null;
    for (const entry of gone) removeFrom(this.entries, entry.key, idKey);
    for (const entry of added) addTo(this.entries, entry.key, idKey);
    // Prefixes shorter than the array's position hold equal scalars: unchanged. Longer ones carry the element.
    this.prefixes.forEach((map, i) => {
      if (i < at) return;
      for (const entry of gone) removeFrom(map, Index.keyOf(entry.values.slice(0, i + 1)), idKey);
      for (const entry of added) addTo(map, Index.keyOf(entry.values.slice(0, i + 1)), idKey);
    });
  }

  /**
   * Replaces a document's keys `before` by `after`, touching only the keys (and leading-field keys) that differ: a
   * multikey field that gained a few elements adds those few keys.
   */
  update(idKey: string, before: IndexEntry[], after: IndexEntry[]): void {
    const afterKeys = new Set(after.map((e) => e.key));
    const beforeKeys = new Set(before.map((e) => e.key));
    const gone = before.filter((e) => !afterKeys.has(e.key));
    const added = after.filter((e) => !beforeKeys.has(e.key));
    if (gone.length === 0 && added.length === 0) return;
    for (const entry of gone) removeFrom(this.entries, entry.key, idKey);
    for (const entry of added) addTo(this.entries, entry.key, idKey);
    if (this.ordered) {
      for (const entry of gone) {
        const at = this.firstAtOrAfter({ values: entry.values, id: idKey });
        if (at < this.ordered.length && this.ordered[at].id === idKey) this.ordered.splice(at, 1);
      }
      for (const entry of added) {
        const item = { values: entry.values, id: idKey };
        this.ordered.splice(this.firstAtOrAfter(item), 0, item);
      }
    }
    this.prefixes.forEach((map, i) => {
      const prefixKeys = (entries: IndexEntry[]) => new Set(entries.map((e) => Index.keyOf(e.values.slice(0, i + 1))));
      const was = prefixKeys(before);
      const is = prefixKeys(after);
      for (const k of was) if (!is.has(k)) removeFrom(map, k, idKey);
      for (const k of is) if (!was.has(k)) addTo(map, k, idKey);
    });
  }

  /** Builds the ordered view from the collection's documents unless it is already kept. */
  ensureOrdered(docs: Iterable<[string, Document]>): void {
    if (this.ordered) return;
    const out: OrderedEntry[] = [];
    for (const [id, doc] of docs) for (const entry of this.entriesFor(doc)) out.push({ values: entry.values, id });
    out.sort((a, b) => this.compareEntries(a, b));
    this.ordered = out;
  }

  /**
   * Positions [from, to) in the ordered view of the keys whose first fields equal `prefix` and whose next
   * field lies in `range` (call ensureOrdered first).
   */
  span(prefix: unknown[], range: KeyRange | undefined): [number, number] {
    const ordered = this.ordered ?? [];
    const k = prefix.length;
    const dir = this.dirs[k] ?? 1;
    // In index order a descending field starts at its upper bound.
    const start = dir === 1 ? range?.lower : range?.upper;
    const end = dir === 1 ? range?.upper : range?.lower;
    const prefixOrder = (e: OrderedEntry): number => {
      for (let i = 0; i < k; i++) {
        const c = compareValues(e.values[i], prefix[i]) * this.dirs[i];
        if (c) return c;
      }
      return 0;
    };
    const from = firstNot(ordered, (e) => {
      const c = prefixOrder(e);
      if (c) return c < 0;
      if (!start || k >= this.fields.length) return false;
      const d = compareValues(e.values[k], start.value) * dir;
      return start.inclusive ? d < 0 : d <= 0;
    });
    const to = firstNot(ordered, (e) => {
      const c = prefixOrder(e);
      if (c) return c < 0;
      if (!end || k >= this.fields.length) return true;
      const d = compareValues(e.values[k], end.value) * dir;
      return end.inclusive ? d <= 0 : d < 0;
    });
    return [from, Math.max(from, to)];
  }

  /** The `_id` keys at positions [from, to) of the ordered view, forwards or backwards. */
  *idsIn(from: number, to: number, backward: boolean): Generator<string> {
    const ordered = this.ordered ?? [];
    if (backward) for (let i = to - 1; i >= from; i--) yield ordered[i].id;
    else for (let i = from; i < to; i++) yield ordered[i].id;
  }

  private compareEntries(a: OrderedEntry, b: OrderedEntry): number {
    for (let i = 0; i < this.dirs.length; i++) {
      const c = compareValues(a.values[i], b.values[i]) * this.dirs[i];
      if (c) return c;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  }

  private firstAtOrAfter(item: OrderedEntry): number {
    return firstNot(this.ordered ?? [], (e) => this.compareEntries(e, item) < 0);
  }

  clear(): void {
    this.ordered = null;
    this.entries.clear();
    for (const map of this.prefixes) map.clear();
  }
}

/** What elementChanges answers: the array field's position in the index, and the keys of its elements gone and come. */
export interface ElementChanges {
  at: number;
  gone: IndexEntry[];
  added: IndexEntry[];
}

/** Values an index keys as one scalar although they are objects (dates, ids, binaries). */
function isScalarObject(v: object): boolean {
  return !Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null;
}

/** Equal values as an index keys them: elementwise for arrays (no key strings built for the common, equal case). */
function sameValue(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((v, i) => sameValue(v, y[i]));
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  return canonicalKey(x) === canonicalKey(y);
}

/** The first position of a sorted array where `before` turns false (binary search). */
function firstNot<T>(items: readonly T[], before: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(items[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Index key → the `_id` key holding it, or a set of them. Most keys (all keys of a unique index) have one holder;
 * a bare string for those keeps a 100,000-document index from allocating 100,000 sets.
 */
export type KeyMap = Map<string, string | Set<string>>;

const NONE: readonly string[] = [];

/** The `_id` keys holding `key`: the live set or a one-element array (read it before writing to the index). */
export function holdersOf(map: KeyMap, key: string): ReadonlySet<string> | readonly string[] {
  const held = map.get(key);
  if (held === undefined) return NONE;
  return typeof held === 'string' ? [held] : held;
}

export function holderCount(holders: ReadonlySet<string> | readonly string[]): number {
  return Array.isArray(holders) ? holders.length : (holders as ReadonlySet<string>).size;
}

function addTo(map: KeyMap, key: string, idKey: string): void {
  const held = map.get(key);
  if (held === undefined) map.set(key, idKey);
  else if (typeof held === 'string') {
    if (held !== idKey) map.set(key, new Set([held, idKey]));
  } else held.add(idKey);
}

function removeFrom(map: KeyMap, key: string, idKey: string): void {
  const held = map.get(key);
  if (held === undefined) return;
  if (typeof held === 'string') {
    if (held === idKey) map.delete(key);
    return;
  }
  held.delete(idKey);
  if (held.size === 1) map.set(key, held.values().next().value as string);
  else if (held.size === 0) map.delete(key);
}

/** mongod's E11000 error, with the keyPattern/keyValue the driver and mongoose read. */
export function duplicateKeyError(ns: string, spec: IndexSpec, values: unknown[]): CommandError {
  const keyValue: Document = {};
  Object.keys(spec.key).forEach((field, i) => {
    keyValue[field] = values[i] === undefined ? null : values[i];
  });
  const shown = Object.keys(keyValue)
    .map((field) => `${field}: ${formatValue(keyValue[field])}`)
    .join(', ');
  return new CommandError(
    ErrorCodes.DuplicateKey,
    `E11000 duplicate key error collection: ${ns} index: ${spec.name} dup key: { ${shown} }`,
    { keyPattern: { ...spec.key }, keyValue },
  );
}

/** Validates an index key pattern and returns mongod's default name for it (`a_1_b_-1`). */
export function defaultIndexName(key: Record<string, unknown>): string {
  return Object.entries(key)
    .map(([field, dir]) => `${field}_${String(dir)}`)
    .join('_');
}

export function validateKeyPattern(key: unknown): asserts key is Record<string, number | string> {
  if (key === null || typeof key !== 'object' || Array.isArray(key) || Object.keys(key).length === 0) {
    throw new CommandError(ErrorCodes.CannotCreateIndex, 'Index keys cannot be empty.');
  }
  for (const [field, dir] of Object.entries(key as Document)) {
    if (!field) throw new CommandError(ErrorCodes.CannotCreateIndex, 'Index keys cannot be an empty field.');
    if (typeof dir === 'number') {
      if (dir === 0 || Number.isNaN(dir)) {
        throw new CommandError(ErrorCodes.CannotCreateIndex, `Values in the index key pattern can't be 0. Got: ${field}: ${dir}`);
      }
      continue;
    }
    if (typeof dir === 'string' && ['text', '2d', '2dsphere', 'hashed', 'geoHaystack'].includes(dir)) continue;
    throw new CommandError(
      ErrorCodes.CannotCreateIndex,
      `Values in index key pattern must be numbers or one of the special index types; found ${field}: ${formatValue(dir)}`,
    );
  }
}
