/** Update documents: operator updates (mingo, plus $setOnInsert), replacements and pipeline updates. */
import { type Document, ObjectId } from 'bson';
import { Aggregator, update as mingoUpdate } from 'mingo';
import { badValue, CommandError, ErrorCodes } from './errors';
import { MINGO_OPTIONS } from './query';
import { canonicalKey, copyDoc, isPlainObject } from './values';

const MODIFIERS = new Set([
  '$currentDate',
  '$inc',
  '$min',
  '$max',
  '$mul',
  '$rename',
  '$set',
  '$setOnInsert',
  '$unset',
  '$addToSet',
  '$pop',
  '$pull',
  '$push',
  '$pullAll',
  '$bit',
]);

const PIPELINE_UPDATE_STAGES = new Set(['$addFields', '$set', '$project', '$unset', '$replaceRoot', '$replaceWith']);

export type UpdateSpec = Document | Document[];

export function isOperatorUpdate(u: UpdateSpec): boolean {
  if (Array.isArray(u)) return false;
  const keys = Object.keys(u);
  return keys.length > 0 && keys[0].startsWith('$');
}

/** Validates the shape of an update before any document is touched. */
export function validateUpdate(u: unknown): asserts u is UpdateSpec {
  if (Array.isArray(u)) {
    for (const stage of u) {
      const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
      if (!name || !PIPELINE_UPDATE_STAGES.has(name)) {
        throw new CommandError(ErrorCodes.InvalidOptions, `${name ?? 'stage'} is not allowed to be used within an update`);
      }
    }
    return;
  }
  if (!isPlainObject(u)) throw new CommandError(ErrorCodes.FailedToParse, 'Update argument must be either an object or an array');
  if (!isOperatorUpdate(u)) {
    for (const key of Object.keys(u)) {
      if (key.startsWith('$'))
        throw new CommandError(
          ErrorCodes.FailedToParse,
          `The dollar ($) prefixed field '${key}' in '${key}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
        );
    }
    return;
  }
  const paths: string[] = [];
  for (const [op, fields] of Object.entries(u)) {
    if (!MODIFIERS.has(op)) {
      throw new CommandError(
        ErrorCodes.FailedToParse,
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
    if (!isPlainObject(fields)) {
      throw new CommandError(
        ErrorCodes.FailedToParse,
        `Modifiers operate on fields but we found type ${typeof fields} instead. For example: {$mod: {<field>: ...}} not {${op}: ${String(fields)}}`,
      );
    }
    for (const [path, value] of Object.entries(fields)) {
      paths.push(path.replace(/\.\$(\[[^\]]*\])?/g, '.$'));
      if (op === '$rename') paths.push(String(value));
    }
  }
  const sorted = [...paths].sort();
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1] || sorted[i].startsWith(sorted[i - 1] + '.')) {
      throw new CommandError(
        ErrorCodes.ConflictingUpdateOperators,
        `Updating the path '${sorted[i]}' would create a conflict at '${sorted[i - 1]}'`,
      );
    }
  }
}

interface ApplyOptions {
  arrayFilters?: Document[];
  /** The filter that selected the document (for the positional `$` operator). */
  query?: Document;
  /** The document is being inserted by an upsert: `$setOnInsert` applies. */
  inserting?: boolean;
}

/** Returns the updated version of `doc` as a new object (`doc` itself is never modified), or `doc` when nothing changed. */
export function applyUpdate(doc: Document, u: UpdateSpec, opts: ApplyOptions = {}): Document {
  let next: Document;
  if (Array.isArray(u)) {
    let result: Document[];
    try {
      result = new Aggregator(u, MINGO_OPTIONS).run([copyDoc(doc)]) as Document[];
    } catch (err) {
      throw badValue((err as Error).message);
    }
    next = result[0] ?? {};
    if (!('_id' in next) && '_id' in doc) next = { _id: doc._id, ...next };
  } else if (isOperatorUpdate(u)) {
    const { $setOnInsert, ...rest } = u;
    const modifier: Document = { ...rest };
    if (opts.inserting && $setOnInsert) modifier.$set = { ...(modifier.$set ?? {}), ...$setOnInsert };
    guardId(doc, modifier);
    checkTargets(doc, modifier);
    next = copyDoc(doc);
    let changed: string[] | undefined = plainUpdate(next, modifier);
    if (changed) {
      if (changed.length === 0) return doc;
      return next;
    }
    try {
      // Only the positional `$` operator needs the filter; compiling it for every update would be wasted work.
      const positional = Object.values(modifier).some((fields) => Object.keys(fields as Document).some((p) => /(^|\.)\$(\.|$)/.test(p)));
      changed = mingoUpdate(next, modifier, opts.arrayFilters, positional ? opts.query : undefined, { queryOptions: MINGO_OPTIONS });
    } catch (err) {
      throw new CommandError(ErrorCodes.BadValue, (err as Error).message);
    }
    if (changed.length === 0) return doc;
    assertSameId(doc, next);
    return next;
  } else {
    if ('_id' in u && '_id' in doc && canonicalKey(u._id) !== canonicalKey(doc._id)) {
      throw new CommandError(
        ErrorCodes.ImmutableField,
        `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${String(u._id)}`,
      );
    }
    const { _id: _ignored, ...fields } = u;
    next = '_id' in doc ? { _id: doc._id, ...fields } : { ...fields };
  }
  assertSameId(doc, next);
  if (canonicalKey(next) === canonicalKey(doc)) return doc;
  return next;
}

/** The update operators plainUpdate applies itself; everything else goes through mingo. */
const PLAIN_OPS = new Set(['$set', '$inc', '$unset', '$addToSet']);

/** The items an `$addToSet` argument adds (a value, or `{ $each: [...] }`), when all are strings, numbers or booleans. */
function addedScalars(arg: unknown): unknown[] | undefined {
  const items = isPlainObject(arg) ? (Object.keys(arg).length === 1 && Array.isArray(arg.$each) ? arg.$each : undefined) : [arg];
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
  return items?.every(scalar) ? items : undefined;
}

/**
 * The common updates ($set, $inc and $unset of fields reached through objects only: no positional `$`, no array
 * index, no array on the way) applied natively to `next`, without mingo's per-update set-up of its operator
 * tables. Returns the paths whose value changed, or undefined (and leaves `next` untouched) when the update is
 * outside that subset. checkTargets has already refused $inc on a non-number.
 */
function plainUpdate(next: Document, modifier: Document): string[] | undefined {
  const steps: { op: string; parts: string[]; arg: unknown }[] = [];
  for (const [op, fields] of Object.entries(modifier)) {
    if (!PLAIN_OPS.has(op)) return undefined;
    for (const [path, arg] of Object.entries(fields as Document)) {
      const parts = path.split('.');
      if (parts.some((p) => p === '' || p.startsWith('$') || /^\d+$/.test(p))) return undefined;
      let cur: unknown = next;
      for (let i = 0; i < parts.length - 1 && cur !== undefined; i++) {
        if (!isPlainObject(cur)) return undefined;
        cur = (cur as Document)[parts[i]];
      }
      if (cur !== undefined && !isPlainObject(cur)) return undefined;
      const leaf = cur === undefined ? undefined : (cur as Document)[parts[parts.length - 1]];
      if (op === '$addToSet') {
        // Onto an array of plain values (or a missing field), values that are strings, numbers or booleans only.
        if (!(leaf === undefined || (Array.isArray(leaf) && leaf.every((v) => !isPlainObject(v) && !Array.isArray(v))))) return undefined;
        const items = addedScalars(arg);
        if (!items) return undefined;
        steps.push({ op, parts, arg: items });
        continue;
      }
      if (Array.isArray(leaf) && op !== '$set' && op !== '$unset') return undefined;
      if (op === '$inc' && (typeof arg !== 'number' || (leaf !== undefined && typeof leaf !== 'number'))) return undefined;
      steps.push({ op, parts, arg });
    }
  }
  const changed: string[] = [];
  for (const { op, parts, arg } of steps) {
    const name = parts[parts.length - 1];
    if (op === '$unset') {
      const parent = walk(next, parts, false);
      if (parent && name in parent) {
        delete parent[name];
        changed.push(parts.join('.'));
      }
      continue;
    }
    const parent = walk(next, parts, true) as Document;
    const old = parent[name];
    if (op === '$addToSet') {
      const list = Array.isArray(old) ? [...(old as unknown[])] : [];
      const held = new Set(list.map(canonicalKey));
      for (const item of arg as unknown[]) {
        const key = canonicalKey(item);
        if (held.has(key)) continue;
        held.add(key);
        list.push(item);
      }
      if (old === undefined || list.length !== (old as unknown[]).length) {
        parent[name] = list;
        changed.push(parts.join('.'));
      }
      continue;
    }
    const value = op === '$inc' ? ((old as number | undefined) ?? 0) + (arg as number) : copyDoc(arg);
    if (old === undefined || canonicalKey(old) !== canonicalKey(value) || typeName(old) !== typeName(value)) {
      parent[name] = value;
      changed.push(parts.join('.'));
    }
  }
  return changed;
}

/** The object holding the last part of `parts` in `doc`, creating the objects on the way when `create`. */
function walk(doc: Document, parts: string[], create: boolean): Document | undefined {
  let cur = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    let next = cur[parts[i]] as Document | undefined;
    if (next === undefined) {
      if (!create) return undefined;
      next = {};
      cur[parts[i]] = next;
    }
    cur = next;
  }
  return cur;
}

const NUMERIC_OPS = new Set(['$inc', '$mul']);
const ARRAY_OPS = new Set(['$push', '$addToSet', '$pop', '$pullAll']);

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'double';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'object') return isPlainObject(v) ? 'object' : ((v as { _bsontype?: string })._bsontype ?? 'object').toLowerCase();
  return typeof v;
}

function idText(doc: Document): string {
  return `{_id: ${typeof doc._id === 'string' ? JSON.stringify(doc._id) : String(doc._id)}}`;
}

/**
 * mingo skips operators that do not fit the stored value; mongod refuses them. Checks the paths without
 * positional parts: traversing through a scalar (PathNotViable), $inc on a non-number, array operators on a
 * non-array.
 */
function checkTargets(doc: Document, modifier: Document): void {
  for (const [op, fields] of Object.entries(modifier)) {
    for (const [path, arg] of Object.entries(fields as Document)) {
      if (path.includes('$')) continue;
      const parts = path.split('.');
      let cur: unknown = doc;
      let i = 0;
      for (; i < parts.length - 1; i++) {
        const next: unknown = Array.isArray(cur)
          ? /^\d+$/.test(parts[i])
            ? cur[Number(parts[i])]
            : undefined
          : (cur as Document)[parts[i]];
        if (next === undefined || next === null) {
          if (next === null && op !== '$unset' && op !== '$pull' && op !== '$pop') {
            throw new CommandError(ErrorCodes.PathNotViable, `Cannot create field '${parts[i + 1]}' in element {${parts[i]}: null}`);
          }
          cur = undefined;
          break;
        }
        if (typeof next !== 'object' || !(isPlainObject(next) || Array.isArray(next))) {
          if (op === '$unset' || op === '$pull' || op === '$pop') {
            cur = undefined;
            break;
          }
          throw new CommandError(
            ErrorCodes.PathNotViable,
            `Cannot create field '${parts[i + 1]}' in element {${parts[i]}: ${JSON.stringify(next) ?? String(next)}}`,
          );
        }
        cur = next;
      }
      if (cur === undefined) continue;
      const leaf = parts[parts.length - 1];
      const value = Array.isArray(cur) ? (/^\d+$/.test(leaf) ? cur[Number(leaf)] : undefined) : (cur as Document)[leaf];
      if (value === undefined) continue;
      if (NUMERIC_OPS.has(op)) {
        if (typeof value !== 'number' && typeName(value) !== 'long' && typeName(value) !== 'decimal128') {
          throw new CommandError(
            ErrorCodes.TypeMismatch,
            `Cannot apply ${op} to a value of non-numeric type. ${idText(doc)} has the field '${leaf}' of non-numeric type ${typeName(value)}`,
          );
        }
        if (typeof arg !== 'number' && !['long', 'decimal128', 'int', 'double'].includes(typeName(arg))) {
          throw new CommandError(
            ErrorCodes.TypeMismatch,
            `Cannot ${op === '$inc' ? 'increment' : 'multiply'} with non-numeric argument: {${path}: ${JSON.stringify(arg)}}`,
          );
        }
      } else if (op === '$pull' && !Array.isArray(value)) {
        throw new CommandError(ErrorCodes.BadValue, 'Cannot apply $pull to a non-array value');
      } else if (ARRAY_OPS.has(op) && !Array.isArray(value)) {
        const message =
          op === '$pop' || op === '$pullAll'
            ? `Path '${path}' contains an element of non-array type '${typeName(value)}'`
            : `The field '${path}' must be an array but is of type ${typeName(value)} in document ${idText(doc)}`;
        throw new CommandError(op === '$pop' || op === '$pullAll' ? ErrorCodes.TypeMismatch : ErrorCodes.BadValue, message);
      }
    }
  }
}

/** mingo would rewrite _id; mongod refuses any update that changes it (setting it to its own value is fine). */
function guardId(doc: Document, modifier: Document): void {
  for (const [op, fields] of Object.entries(modifier)) {
    for (const path of Object.keys(fields as Document)) {
      const targets = op === '$rename' ? [path, String((fields as Document)[path])] : [path];
      for (const target of targets) {
        if (target !== '_id' && !target.startsWith('_id.')) continue;
        if (op === '$set' && target === '_id' && '_id' in doc && canonicalKey((fields as Document)[path]) === canonicalKey(doc._id))
          continue;
        if (!('_id' in doc) && (op === '$set' || op === '$setOnInsert')) continue;
        throw new CommandError(ErrorCodes.ImmutableField, "Performing an update on the path '_id' would modify the immutable field '_id'");
      }
    }
  }
}

function assertSameId(doc: Document, next: Document): void {
  if ('_id' in doc && canonicalKey(next._id) !== canonicalKey(doc._id)) {
    throw new CommandError(ErrorCodes.ImmutableField, "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
}

function setPath(doc: Document, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!isPlainObject(cur[parts[i]])) cur[parts[i]] = {};
    cur = cur[parts[i]] as Document;
  }
  cur[parts[parts.length - 1]] = value;
}

function equalityFields(filter: Document, out: Document): void {
  for (const [field, cond] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(cond)) {
      for (const branch of cond) if (isPlainObject(branch)) equalityFields(branch, out);
      continue;
    }
    // Regular expressions and operators select documents; they are not values an upsert can copy.
    if (field.startsWith('$') || cond instanceof RegExp) continue;
    if (isPlainObject(cond) && Object.keys(cond).some((k) => k.startsWith('$'))) {
      if ('$eq' in cond) setPath(out, field, copyDoc(cond.$eq));
      else if (Array.isArray(cond.$in) && cond.$in.length === 1) setPath(out, field, copyDoc(cond.$in[0]));
      continue;
    }
    setPath(out, field, copyDoc(cond));
  }
}

/** The document an upsert inserts: the filter's equality fields, then the update (or the replacement). */
export function buildUpsert(filter: Document, u: UpdateSpec, arrayFilters?: Document[]): Document {
  let doc: Document;
  if (!Array.isArray(u) && !isOperatorUpdate(u)) {
    const seed: Document = {};
    equalityFields(filter, seed);
    doc = { ...u };
    if (!('_id' in doc) && '_id' in seed) doc = { _id: seed._id, ...doc };
  } else {
    const seed: Document = {};
    equalityFields(filter, seed);
    doc = applyUpdate(seed, u, { arrayFilters, inserting: true });
  }
  if (!('_id' in doc)) return { _id: new ObjectId(), ...doc };
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}
