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
    let combos: unknown[][] = [[]];
    for (const vals of perField) {
      const next: unknown[][] = [];
      for (const combo of combos) for (const v of vals) next.push([...combo, v === undefined ? null : v]);
      combos = next;
    }
    const seen = new Set<string>();
    const out: IndexEntry[] = [];
    for (const values of combos) {
      const key = Index.keyOf(values);
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
