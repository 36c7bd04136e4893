/**
 * One collection in memory: documents by canonical `_id` key (insertion order = natural order), its indexes,
 * and the planner that turns equality predicates into index lookups.
 */
import { Binary, type Document, ObjectId, UUID } from 'bson';
import { CommandError, ErrorCodes } from './errors';
import { duplicateKeyError, holderCount, holdersOf, Index, type IndexEntry, type KeyRange } from './indexes';
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
  /** True when the documents come in the order the caller's sort asks for (an index-backed sort). */
  ordered?: boolean;
  /** For an ordered index scan: which way the index was read. */
  direction?: 'forward' | 'backward';
}

/** A sort as [field, 1 | -1] pairs. */
export type SortSpec = Array<[string, 1 | -1]>;

const RANGE_OPS: Record<string, keyof KeyRange> = { $gt: 'lower', $gte: 'lower', $lt: 'upper', $lte: 'upper' };

/** Range predicates (`$gt`/`$gte`/`$lt`/`$lte` on one scalar) per top-level field; `pure` when bounded on both sides by one type. */
function rangeFields(filter: Document): Map<string, { range: KeyRange; pure: boolean }> {
  const out = new Map<string, { range: KeyRange; pure: boolean }>();
  for (const [field, cond] of Object.entries(filter)) {
    if (field.startsWith('$') || !isPlainObject(cond)) continue;
    const ops = Object.keys(cond);
    if (ops.length === 0 || !ops.every((op) => op in RANGE_OPS)) continue;
    const range: KeyRange = {};
    let usable = true;
    for (const op of ops) {
      const value = cond[op];
      if (!isSafeScalar(value)) usable = false;
      const side = RANGE_OPS[op];
      if (range[side]) usable = false;
      range[side] = { value, inclusive: op === '$gte' || op === '$lte' };
    }
    if (!usable) continue;
    const kind = (v: unknown) => (v instanceof Date ? 'date' : v instanceof ObjectId ? 'oid' : typeof v);
    const pure = !!range.lower && !!range.upper && kind(range.lower.value) === kind(range.upper.value);
    out.set(field, { range, pure });
  }
  return out;
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
function pinnedFields(
  filter: Document,
  out = new Map<string, Pinned>(),
  top = { pure: true },
): { pins: Map<string, Pinned>; pure: boolean } {
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
    // Most updates leave the indexed fields alone: an index whose fields hold the same values keeps its keys (and its
    // ordered view) untouched, without working them out (a multikey field's array would cost a key per element).
    const changed = [...this.indexes.values()].filter((index) => !index.sameFields(oldDoc, newDoc));
    // An array of plain values that only changed itself (words added to a list) is answered by the elements that
    // came and went; any other change by all of the document's keys.
    const grown = new Map(changed.map((index) => [index, index.elementChanges(oldDoc, newDoc)] as const));
    const computed = new Map<Index, IndexEntry[]>();
    for (const index of changed) {
      const entries = grown.get(index)?.added ?? index.entriesFor(newDoc);
      index.checkUnique(this.ns, newDoc, idKey, entries);
      computed.set(index, entries);
    }
    const before = new Map(changed.map((index) => [index, grown.get(index)?.gone ?? index.entriesFor(oldDoc)] as const));
    this.docs.set(idKey, newDoc);
    for (const [index, entries] of computed) {
      const diff = grown.get(index);
      if (diff) index.applyElementChanges(idKey, diff);
      else index.update(idKey, before.get(index) ?? [], entries);
    }
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

  /**
   * Index-backed candidates for a filter, or the whole collection. Equality predicates use an index's hash
   * maps; a range on the field after an equality prefix, or a sort the index order gives (`sort`, preferred
   * when `limited`: the caller stops early), uses its ordered view.
   */
  candidates(filter: Document, sort?: SortSpec, limited = false): Candidates {
    const all: Candidates = { docs: this.docs.values(), exact: Object.keys(filter).length === 0, size: this.docs.size };
    if (this.docs.size === 0) return all;
    const { pins, pure } = pinnedFields(filter);
    const hashed = this.hashCandidates(pins, pure);
    const ordered = this.orderedCandidates(filter, pins, sort);
    // Sorting a few dozen hashed candidates costs nothing; past that an index-backed sort wins when the caller
    // stops early or the ordered plan is not much larger.
    const sortWins = !!sort && !!ordered?.ordered && !!hashed && hashed.size > 64 && (limited || ordered.size <= hashed.size * 4);
    if (ordered && (!hashed || sortWins || ordered.size < hashed.size)) return ordered;
    return hashed ?? ordered ?? all;
  }

  /** The smallest ordered-view plan: an equality prefix, then a range or the sort's fields. */
  private orderedCandidates(filter: Document, pins: Map<string, Pinned>, sort: SortSpec | undefined): Candidates | undefined {
    const ranges = rangeFields(filter);
    if (ranges.size === 0 && !sort) return undefined;
    const topKeys = Object.keys(filter);
    let best: Candidates | undefined;
    for (const index of this.indexes.values()) {
      if (!index.usable || !index.orderable) continue;
      let depth = 0;
      while (depth < index.fields.length && pins.get(index.fields[depth])?.values.length === 1) depth++;
      const rangeField = index.fields[depth];
      const ranged = rangeField !== undefined ? ranges.get(rangeField) : undefined;
      const order = sortOrder(index, depth, sort);
      // Only worth the ordered view when it narrows by a range or gives the sort.
      if (!ranged && !(order && sort && !index.sparse)) continue;
      if (!ranged && depth === 0 && index.sparse) continue;
      const prefix = index.fields.slice(0, depth).map((f) => pins.get(f)!.values[0]);
      if (prefix.some((v) => v === null || v === undefined || !isSafeScalar(v))) continue;
      index.ensureOrdered(this.docs);
      const [from, to] = index.span(prefix, ranged?.range);
      const used = new Set(index.fields.slice(0, depth));
      if (ranged) used.add(rangeField);
      const exact =
        topKeys.length === used.size &&
        topKeys.every((k) => used.has(k)) &&
        index.fields.slice(0, depth).every((f) => pins.get(f)!.pure) &&
        (!ranged || ranged.pure);
      const backward = order === 'backward';
      const plan: Candidates = {
        docs: this.resolve(index.idsIn(from, to, backward)),
        exact,
        size: to - from,
        index: index.spec,
        ordered: !!sort && !!order,
        direction: backward ? 'backward' : 'forward',
      };
      if (!best || (plan.ordered && !best.ordered) || (plan.ordered === best.ordered && plan.size < best.size)) best = plan;
    }
    return best;
  }

  private hashCandidates(pins: Map<string, Pinned>, pure: boolean): Candidates | undefined {
    if (pins.size === 0) return undefined;
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
    if (!best) return undefined;
    return { docs: this.resolve(best.ids), exact: best.exact, size: best.size, index: best.index.spec };
  }

  private *resolve(ids: Iterable<string>): Generator<Document> {
    for (const id of ids) {
      const doc = this.docs.get(id);
      if (doc) yield doc;
    }
  }
}

/**
 * Whether reading `index` (after `depth` equality fields) gives `sort`'s order, and in which direction: sort
 * fields pinned by equality are ignored, the rest must follow the index fields with all directions the same
 * or all reversed.
 */
function sortOrder(index: Index, depth: number, sort: SortSpec | undefined): 'forward' | 'backward' | undefined {
  if (!sort) return 'forward';
  const pinned = new Set(index.fields.slice(0, depth));
  const rest = sort.filter(([field]) => !pinned.has(field));
  if (rest.length === 0) return 'forward';
  let direction: 'forward' | 'backward' | undefined;
  for (let i = 0; i < rest.length; i++) {
    const at = depth + i;
    if (index.fields[at] !== rest[i][0]) return undefined;
    const d = rest[i][1] === index.dirs[at] ? 'forward' : 'backward';
    if (direction && d !== direction) return undefined;
    direction = d;
  }
  return direction;
}
