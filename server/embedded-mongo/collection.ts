/**
 * One collection in memory: documents by canonical `_id` key (insertion order = natural order), its indexes,
 * and the planner that turns equality predicates into index lookups.
 */
import { Binary, ObjectId, UUID, type Document } from 'bson';
import { CommandError, ErrorCodes } from './errors';
import { Index, duplicateKeyError, holderCount, holdersOf, type IndexEntry } from './indexes';
import type { IndexSpec } from './storage';
import { canonicalKey, isPlainObject } from './values';

export const ID_INDEX: IndexSpec = { name: '_id_', key: { _id: 1 } };

export interface Candidates {
  /** Documents that may match, in natural order when the whole collection is scanned. */
  docs: Iterable<Document>;
  /** True when every candidate matches the filter, so it need not be re-checked. */
  exact: boolean;
  /** Number of candidates when known without iterating. */
  size: number;
  /** The index that produced them (`_id_` for _id lookups), undefined for a collection scan. */
  index?: IndexSpec;
}

/** Equality values a filter pins a field to, or undefined when the field is not constrained that way. */
interface Pinned {
  values: unknown[];
  /** The predicate on this field is exactly "equals one of values" (nothing else to check). */
  pure: boolean;
}

function isSafeScalar(v: unknown): boolean {
  return (
    typeof v === 'string' ||
    (typeof v === 'number' && Number.isFinite(v)) ||
    typeof v === 'boolean' ||
    v instanceof ObjectId ||
    v instanceof Date
  );
}

function isIndexableQueryValue(v: unknown): boolean {
  if (Array.isArray(v) || v instanceof RegExp) return false;
  if (v instanceof Binary) return true;
  if (isPlainObject(v)) return !Object.keys(v).some((k) => k.startsWith('$'));
  return true;
}

// Module level rather than a closure per call: under tsx (keepNames) each named closure costs an
// Object.defineProperty, a measurable share of an indexed findOne.
function hasNull(p: Pinned): boolean {
  return p.values.some((v) => v === null || v === undefined);
}

/** Collects `field: value`, `{$eq}` and `{$in}` predicates from a filter and its `$and` branches. */
function pinnedFields(filter: Document, out = new Map<string, Pinned>(), top = { pure: true }): { pins: Map<string, Pinned>; pure: boolean } {
  for (const [field, cond] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(cond)) {
      for (const branch of cond) if (isPlainObject(branch)) pinnedFields(branch, out, top);
      top.pure = false;
      continue;
    }
    if (field.startsWith('$')) {
      top.pure = false;
      continue;
    }
    let pin: Pinned | undefined;
    if (isPlainObject(cond) && Object.keys(cond).length > 0 && Object.keys(cond).every((k) => k.startsWith('$'))) {
      const ops = Object.keys(cond);
      if ('$eq' in cond && isIndexableQueryValue(cond.$eq)) {
        pin = { values: [cond.$eq], pure: ops.length === 1 && isSafeScalar(cond.$eq) };
      } else if ('$in' in cond && Array.isArray(cond.$in) && cond.$in.every(isIndexableQueryValue)) {
        pin = { values: cond.$in, pure: ops.length === 1 && cond.$in.every(isSafeScalar) };
      }
    } else if (isIndexableQueryValue(cond)) {
      pin = { values: [cond], pure: isSafeScalar(cond) };
    }
    if (!pin) {
      top.pure = false;
      continue;
    }
    if (out.has(field)) {
      top.pure = false;
      continue;
    }
    out.set(field, pin);
  }
  return { pins: out, pure: top.pure };
}

export class Collection {
  readonly docs = new Map<string, Document>();
  readonly indexes = new Map<string, Index>();

  constructor(
    readonly db: string,
    readonly name: string,
    public options: Document,
    readonly uuid: Binary = new UUID().toBinary(),
  ) {}

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  indexSpecs(): IndexSpec[] {
    return [ID_INDEX, ...[...this.indexes.values()].map((i) => i.spec)];
  }

  /** Checks every unique constraint for a new document; throws the duplicate key error mongod gives. */
  private check(doc: Document, idKey: string, replacing: boolean): Map<Index, IndexEntry[]> {
    if (!replacing && this.docs.has(idKey)) throw duplicateKeyError(this.ns, ID_INDEX, [doc._id]);
    const computed = new Map<Index, IndexEntry[]>();
    for (const index of this.indexes.values()) {
      const entries = index.entriesFor(doc);
      index.checkUnique(this.ns, doc, idKey, entries);
      computed.set(index, entries);
    }
    return computed;
  }

  insert(doc: Document): void {
    const idKey = canonicalKey(doc._id);
    const computed = this.check(doc, idKey, false);
    this.docs.set(idKey, doc);
    for (const [index, entries] of computed) index.add(idKey, entries);
  }

  /** Swaps a stored document for its new version (same _id); the old object is left untouched. */
  replace(oldDoc: Document, newDoc: Document): void {
    const idKey = canonicalKey(oldDoc._id);
    if (canonicalKey(newDoc._id) !== idKey) {
      throw new CommandError(ErrorCodes.ImmutableField, "Performing an update on the path '_id' would modify the immutable field '_id'");
    }
    const computed = this.check(newDoc, idKey, true);
    for (const index of this.indexes.values()) index.remove(idKey, index.entriesFor(oldDoc));
    this.docs.set(idKey, newDoc);
    for (const [index, entries] of computed) index.add(idKey, entries);
  }

  remove(doc: Document): void {
    const idKey = canonicalKey(doc._id);
    if (!this.docs.delete(idKey)) return;
    for (const index of this.indexes.values()) index.remove(idKey, index.entriesFor(doc));
  }

  /** Builds an index over the existing documents; throws (leaving nothing behind) on a duplicate. */
  addIndex(spec: IndexSpec): void {
    const index = new Index(spec);
    for (const [idKey, doc] of this.docs) {
      const entries = index.entriesFor(doc);
      try {
        index.checkUnique(this.ns, doc, idKey, entries);
      } catch (err) {
        index.clear();
        throw err;
      }
      index.add(idKey, entries);
    }
    this.indexes.set(spec.name, index);
  }

  getById(id: unknown): Document | undefined {
    return this.docs.get(canonicalKey(id));
  }

  /** Index-backed candidates for a filter, or the whole collection. */
  candidates(filter: Document): Candidates {
    const all: Candidates = { docs: this.docs.values(), exact: Object.keys(filter).length === 0, size: this.docs.size };
    if (this.docs.size === 0) return all;
    const { pins, pure } = pinnedFields(filter);
    if (pins.size === 0) return all;
    const allPinsPure = pure && [...pins.values()].every((p) => p.pure);

    const idPin = pins.get('_id');
    if (idPin) {
      const found: Document[] = [];
      const seen = new Set<string>();
      for (const v of idPin.values) {
        const key = canonicalKey(v);
        const doc = this.docs.get(key);
        if (doc && !seen.has(key)) {
          seen.add(key);
          found.push(doc);
        }
      }
      return { docs: found, exact: allPinsPure && pins.size === 1, size: found.length, index: ID_INDEX };
    }

    let best: { ids: ReadonlySet<string> | readonly string[]; size: number; exact: boolean; index: Index } | undefined;
    for (const index of this.indexes.values()) {
      if (!index.usable || index.isPartial) continue;
      // The longest run of leading index fields the filter pins to values.
      let depth = 0;
      while (depth < index.fields.length && pins.has(index.fields[depth])) depth++;
      if (depth === 0) continue;
      const used = index.fields.slice(0, depth).map((f) => pins.get(f)!);
      // A sparse index has no entry for documents missing the field, which {field: null} must find.
      if (index.sparse && used.some(hasNull)) continue;
      let combos: unknown[][] = [[]];
      for (const pin of used) {
        const next: unknown[][] = [];
        for (const combo of combos) for (const v of pin.values) next.push([...combo, v]);
        combos = next;
        if (combos.length > 10_000) break;
      }
      if (combos.length > 10_000) continue;
      const map = depth === index.fields.length ? index.entries : index.prefixes[depth - 1];
      let ids: ReadonlySet<string> | readonly string[];
      if (combos.length === 1) {
        // The index's own set, not a copy: callers finish reading candidates before they write.
        ids = holdersOf(map, Index.keyOf(combos[0]));
      } else {
        const union = new Set<string>();
        for (const combo of combos) for (const id of holdersOf(map, Index.keyOf(combo))) union.add(id);
        ids = union;
      }
      const size = holderCount(ids);
      const exact = allPinsPure && pins.size === depth;
      if (!best || size < best.size || (size === best.size && exact && !best.exact)) best = { ids, size, exact, index };
      if (size === 0) break;
    }
    if (!best) return all;
    return { docs: this.resolve(best.ids), exact: best.exact, size: best.size, index: best.index.spec };
  }

  private *resolve(ids: Iterable<string>): Generator<Document> {
    for (const id of ids) {
      const doc = this.docs.get(id);
      if (doc) yield doc;
    }
  }
}
