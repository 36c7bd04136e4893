/**
 * Secondary indexes: a Map from the canonical key of the indexed value(s) to the set of `_id` keys holding
 * them, so equality and `$in` lookups cost O(1) per value. Compound indexes also keep a map on their leading
 * field. Unique indexes are enforced here.
 */
import type { Document } from 'bson';
import { CommandError, ErrorCodes } from './errors';
import { compileFilter, type Matcher } from './query';
import type { IndexSpec } from './storage';
import { canonicalKey, formatValue, pathValues } from './values';

export interface IndexEntry {
  key: string;
  values: unknown[];
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

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.paths = this.fields.map((f) => f.split('.'));
    this.unique = spec.unique === true;
    this.sparse = spec.sparse === true;
    this.usable = Object.values(spec.key).every((dir) => typeof dir === 'number' || dir === 'hashed');
    this.partial = spec.partialFilterExpression ? compileFilter(spec.partialFilterExpression) : undefined;
    this.prefixes = Array.from({ length: this.fields.length - 1 }, (): KeyMap => new Map());
  }

  get isPartial(): boolean {
    return this.partial !== undefined;
  }

  /** The keys this document has in the index (none when sparse/partial exclude it). */
  entriesFor(doc: Document): IndexEntry[] {
    if (this.partial && !this.partial.test(doc)) return [];
    const simple = this.simpleEntry(doc);
    if (simple !== undefined) return simple;
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
    this.prefixes.forEach((map, i) => {
      for (const k of new Set(entries.map((e) => Index.keyOf(e.values.slice(0, i + 1))))) addTo(map, k, idKey);
    });
  }

  remove(idKey: string, entries: IndexEntry[]): void {
    for (const entry of entries) removeFrom(this.entries, entry.key, idKey);
    this.prefixes.forEach((map, i) => {
      for (const k of new Set(entries.map((e) => Index.keyOf(e.values.slice(0, i + 1))))) removeFrom(map, k, idKey);
    });
  }

  clear(): void {
    this.entries.clear();
    for (const map of this.prefixes) map.clear();
  }
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
