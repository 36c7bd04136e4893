/** aggregate: mingo runs the pipeline; a leading $match uses indexes; $out and $merge write here. */
import { type Document, Long, ObjectId } from 'bson';
import { Aggregator, ProcessingMode } from 'mingo';
import type { Collection } from '../collection';
import { badValue, CommandError, ErrorCodes } from '../errors';
import { nativeBucket, nativeGroup, Unsupported } from '../group';
import { compileFilter, lazyFilter, MINGO_OPTIONS, matches } from '../query';
import { canonicalKey, isPlainObject } from '../values';
import { type CommandContext, collectionName, countDocs, type Handler, selectDocs } from './context';
import { storageStats } from './ddl';

const STAGES = new Set([
  '$collStats',
  '$indexStats',
  '$addFields',
  '$bucket',
  '$bucketAuto',
  '$count',
  '$densify',
  '$documents',
  '$facet',
  '$fill',
  '$graphLookup',
  '$group',
  '$limit',
  '$lookup',
  '$match',
  '$merge',
  '$out',
  '$project',
  '$redact',
  '$replaceRoot',
  '$replaceWith',
  '$sample',
  '$set',
  '$setWindowFields',
  '$skip',
  '$sort',
  '$sortByCount',
  '$unionWith',
  '$unset',
  '$unwind',
]);

/** Stages that only build new documents, never write into their input objects. */
const NON_MUTATING = new Set([
  '$match',
  '$group',
  '$sort',
  '$skip',
  '$limit',
  '$count',
  '$sortByCount',
  '$bucket',
  '$bucketAuto',
  '$project',
  '$sample',
]);

function validatePipeline(pipeline: unknown): asserts pipeline is Document[] {
  if (!Array.isArray(pipeline)) {
    throw new CommandError(ErrorCodes.TypeMismatch, "'pipeline' option must be specified as an array");
  }
  pipeline.forEach((stage, i) => {
    if (!isPlainObject(stage) || Object.keys(stage).length !== 1) {
      throw new CommandError(40323, 'A pipeline stage specification object must contain exactly one field.');
    }
    const name = Object.keys(stage)[0];
    if (name === '$changeStream') {
      throw new CommandError(40573, 'The $changeStream stage is only supported on replica sets; set MONGODB_URI to use change streams');
    }
    if (!STAGES.has(name)) throw new CommandError(40324, `Unrecognized pipeline stage name: '${name}'`);
    if ((name === '$collStats' || name === '$indexStats') && i !== 0) {
      throw new CommandError(40602, `${name} is only valid as the first stage in a pipeline`);
    }
    if ((name === '$out' || name === '$merge') && i !== pipeline.length - 1) {
      throw new CommandError(40601, `${name} can only be the final stage in the pipeline`);
    }
    if (name === '$facet' && isPlainObject(stage.$facet)) {
      for (const sub of Object.values(stage.$facet)) validatePipeline(sub);
    }
  });
}

/**
 * mingo files a value equal to an inner boundary into the bucket below it; mongod's boundaries are inclusive
 * lower bounds. $bucket is defined as a $group on the matching range followed by a $sort, so run it that way.
 */
function bucketAsGroup(spec: Document): Document[] {
  const { groupBy, boundaries, output } = spec;
  if (!Array.isArray(boundaries) || boundaries.length < 2) {
    throw new CommandError(40192, "The $bucket 'boundaries' field must be an array of values, at least 2 in length");
  }
  const branches = boundaries.slice(0, -1).map((lower: unknown, i: number) => ({
    case: { $and: [{ $gte: [groupBy, lower] }, { $lt: [groupBy, boundaries[i + 1]] }] },
    then: lower,
  }));
  const $switch: Document = { branches };
  if ('default' in spec) $switch.default = spec.default;
  else $switch.default = { $literal: '$$$bucket-out-of-range' };
  const fields = isPlainObject(output) ? output : { count: { $sum: 1 } };
  return [{ $group: { _id: { $switch }, ...fields } }, { $sort: { _id: 1 } }];
}

function rewriteStages(pipeline: Document[]): Document[] {
  return pipeline.flatMap((stage) => {
    if (isPlainObject(stage.$bucket)) return bucketAsGroup(stage.$bucket);
    if (isPlainObject(stage.$facet)) {
      const facet: Document = {};
      for (const [name, sub] of Object.entries(stage.$facet)) facet[name] = rewriteStages(sub as Document[]);
      return [{ $facet: facet }];
    }
    if (isPlainObject(stage.$lookup) && Array.isArray(stage.$lookup.pipeline)) {
      return [{ $lookup: { ...stage.$lookup, pipeline: rewriteStages(stage.$lookup.pipeline) } }];
    }
    return [stage];
  });
}

function checkBuckets(results: Document[]): void {
  for (const doc of results) {
    if (doc._id === '$$$bucket-out-of-range') {
      throw new CommandError(40066, '$switch could not find a matching branch for an input, and no default was specified.');
    }
  }
}

function mutates(pipeline: Document[]): boolean {
  return pipeline.some((stage) => {
    const name = Object.keys(stage)[0];
    if (name === '$facet') return Object.values(stage.$facet as Document).some((sub) => mutates(sub as Document[]));
    return !NON_MUTATING.has(name);
  });
}

function isCountGroup(stage: Document | undefined): boolean {
  if (!stage || !isPlainObject(stage.$group)) return false;
  const group = stage.$group;
  const keys = Object.keys(group);
  if (keys.length !== 2 || !('_id' in group)) return false;
  const id = group._id;
  if (typeof id === 'string' && id.startsWith('$')) return false;
  if (isPlainObject(id) || Array.isArray(id)) return false;
  const field = keys.find((k) => k !== '_id')!;
  const acc = group[field];
  return isPlainObject(acc) && Object.keys(acc).length === 1 && acc.$sum === 1;
}

/** Stages mongod refuses inside $facet: such a $facet is left to mingo. */
const NOT_IN_FACET = new Set(['$collStats', '$indexStats', '$facet', '$out', '$merge']);

function facetPipelines(spec: unknown): Array<[string, Document[]]> | undefined {
  if (!isPlainObject(spec)) return undefined;
  const entries = Object.entries(spec);
  const fits = entries.every(([, sub]) => Array.isArray(sub) && sub.every((stage) => !NOT_IN_FACET.has(Object.keys(stage)[0])));
  return entries.length && fits ? (entries as Array<[string, Document[]]>) : undefined;
}

/**
 * Leading `$group`/`$bucket` stages run natively when their expressions allow (see group.ts), and so does a
 * leading `$facet`, each of its pipelines on the same input; the rest, usually a sort of a few grouped rows,
 * goes to mingo.
 */
function runPipeline(ctx: CommandContext, input: Document[], pipeline: Document[], letVars: Document | undefined): Document[] {
  let docs = input;
  let rest = pipeline;
  while (rest.length && !letVars) {
    const stage = rest[0];
    const facets = '$facet' in stage ? facetPipelines(stage.$facet) : undefined;
    try {
      if ('$group' in stage) docs = nativeGroup(stage.$group, docs);
      else if ('$bucket' in stage) docs = nativeBucket(stage.$bucket, docs);
      else if (facets) {
        const from = docs;
        docs = [Object.fromEntries(facets.map(([name, sub]) => [name, runPipeline(ctx, from, sub, letVars)]))];
      } else break;
    } catch (err) {
      if (err instanceof Unsupported) break;
      throw err;
    }
    rest = rest.slice(1);
  }
  return runMingo(ctx, docs, rest, letVars);
}

function runMingo(ctx: CommandContext, input: Document[], pipeline: Document[], letVars: Document | undefined): Document[] {
  if (pipeline.length === 0) return input;
  const resolver = (name: string): Document[] => [...(ctx.engine.get(ctx.db, name)?.docs.values() ?? [])];
  try {
    const agg = new Aggregator(rewriteStages(pipeline), {
      ...MINGO_OPTIONS,
      collectionResolver: resolver,
      processingMode: mutates(pipeline) ? ProcessingMode.CLONE_INPUT : ProcessingMode.CLONE_OFF,
      variables: letVars,
    });
    const results = agg.run(input) as Document[];
    if (pipeline.some((stage) => '$bucket' in stage)) checkBuckets(results);
    return results;
  } catch (err) {
    if (err instanceof CommandError) throw err;
    throw badValue((err as Error).message);
  }
}

function targetOf(spec: unknown, db: string, stage: string): { db: string; coll: string } {
  if (typeof spec === 'string') return { db, coll: spec };
  if (isPlainObject(spec) && typeof spec.coll === 'string') return { db: typeof spec.db === 'string' ? spec.db : db, coll: spec.coll };
  throw new CommandError(ErrorCodes.FailedToParse, `${stage} stage requires a collection name or { db, coll }`);
}

function withId(doc: Document): Document {
  return '_id' in doc ? doc : { _id: new ObjectId(), ...doc };
}

function writeOut(ctx: CommandContext, spec: unknown, results: Document[]): void {
  const target = targetOf(spec, ctx.db, '$out');
  const seen = new Set<string>();
  const docs = results.map(withId);
  for (const doc of docs) {
    const key = canonicalKey(doc._id);
    if (seen.has(key))
      throw new CommandError(
        ErrorCodes.DuplicateKey,
        `E11000 duplicate key error collection: ${target.db}.${target.coll} index: _id_ dup key: { _id: ${String(doc._id)} }`,
      );
    seen.add(key);
  }
  const { coll } = ctx.engine.ensure(target.db, target.coll, ctx.ops);
  for (const doc of [...coll.docs.values()]) ctx.engine.remove(coll, doc, ctx.ops);
  for (const doc of docs) ctx.engine.insert(coll, doc, ctx.ops);
}

function writeMerge(ctx: CommandContext, spec: unknown, results: Document[]): void {
  const options: Document = typeof spec === 'string' || (isPlainObject(spec) && 'coll' in spec) ? { into: spec } : (spec as Document);
  if (!isPlainObject(options) || options.into === undefined)
    throw new CommandError(ErrorCodes.FailedToParse, '$merge requires an into field');
  const target = targetOf(options.into, ctx.db, '$merge');
  const on = options.on === undefined ? ['_id'] : Array.isArray(options.on) ? options.on.map(String) : [String(options.on)];
  const whenMatched = options.whenMatched ?? 'merge';
  const whenNotMatched = options.whenNotMatched ?? 'insert';
  const { coll } = ctx.engine.ensure(target.db, target.coll, ctx.ops);
  for (const raw of results) {
    const doc = withId(raw);
    const filter: Document = {};
    for (const field of on) filter[field] = doc[field] ?? null;
    const existing = selectDocs(coll, filter, lazyFilter(filter), 1)[0];
    if (!existing) {
      if (whenNotMatched === 'insert') ctx.engine.insert(coll, doc, ctx.ops);
      else if (whenNotMatched === 'fail')
        throw new CommandError(
          13113,
          '$merge could not find a matching document in the target collection for at least one document in the source collection',
        );
      continue;
    }
    if (whenMatched === 'keepExisting') continue;
    if (whenMatched === 'fail') throw mergeDuplicate(coll, existing);
    let next: Document;
    if (whenMatched === 'replace') next = { ...doc, _id: existing._id };
    else if (whenMatched === 'merge') next = { ...existing, ...doc, _id: existing._id };
    else if (Array.isArray(whenMatched)) next = runPipeline(ctx, [existing], whenMatched, { new: doc })[0] ?? existing;
    else
      throw new CommandError(
        ErrorCodes.BadValue,
        `Enumeration value '${String(whenMatched)}' for field 'whenMatched' is not a valid value.`,
      );
    ctx.engine.replace(coll, existing, { _id: existing._id, ...next }, ctx.ops);
  }
}

function mergeDuplicate(coll: Collection, existing: Document): CommandError {
  return new CommandError(
    ErrorCodes.DuplicateKey,
    `E11000 duplicate key error collection: ${coll.ns} index: _id_ dup key: { _id: ${String(existing._id)} }`,
  );
}

/** $collStats / $indexStats as the first stage (what mongosh and Compass ask for). */
function statsStage(stage: Document, coll: Collection | undefined, ns: string): Document[] {
  if (!coll) return [];
  if ('$indexStats' in stage) {
    return coll.indexSpecs().map((spec) => ({
      name: spec.name,
      key: spec.key,
      host: 'localhost',
      accesses: { ops: 0, since: new Date() },
      spec: { v: 2, ...spec },
    }));
  }
  const spec = isPlainObject(stage.$collStats) ? stage.$collStats : {};
  const out: Document = { ns, host: 'localhost', localTime: new Date() };
  if ('storageStats' in spec) out.storageStats = storageStats(coll);
  if ('count' in spec) out.count = coll.docs.size;
  return [out];
}

export const aggregate: Handler = (cmd, ctx) => {
  const collectionLess = cmd.aggregate === 1;
  const name = collectionLess ? undefined : collectionName(cmd, 'aggregate');
  const pipeline = cmd.pipeline;
  validatePipeline(pipeline);
  if (cmd.explain === true) {
    return { explainVersion: '1', stages: pipeline, queryPlanner: { namespace: `${ctx.db}.${name ?? '$cmd.aggregate'}` }, ok: 1 };
  }
  if (!isPlainObject(cmd.cursor)) {
    throw new CommandError(ErrorCodes.FailedToParse, "The 'cursor' option is required, except for aggregate with the explain argument");
  }
  if (cmd.collation)
    ctx.engine.warnOnce(`embedded-mongo: collation is not supported and was ignored (aggregate on ${ctx.db}.${name ?? ''})`);
  const letVars = isPlainObject(cmd.let) ? cmd.let : undefined;
  const coll = name === undefined ? undefined : ctx.engine.get(ctx.db, name);

  let stages = pipeline;
  const last = stages[stages.length - 1];
  const writer = last && ('$out' in last || '$merge' in last) ? last : undefined;
  if (writer) stages = stages.slice(0, -1);

  let input: Document[];
  const first = stages[0];
  if (first && ('$collStats' in first || '$indexStats' in first)) {
    input = statsStage(first, coll, `${ctx.db}.${name}`);
    stages = stages.slice(1);
  } else if (first && isPlainObject(first.$match) && !('$expr' in first.$match)) {
    const filter = first.$match;
    const query = lazyFilter(filter);
    stages = stages.slice(1);
    if (!writer && stages.length === 1 && isCountGroup(stages[0])) {
      // countDocuments: answer from the index without materializing the matches.
      const n = countDocs(coll, filter, query);
      const group = stages[0].$group as Document;
      const field = Object.keys(group).find((k) => k !== '_id')!;
      input = n ? [{ _id: group._id, [field]: n }] : [];
      stages = [];
    } else {
      input = selectDocs(coll, filter, query);
    }
  } else if (first && '$match' in first) {
    const query = compileFilter(first.$match);
    input = [...(coll?.docs.values() ?? [])].filter((d) => matches(query, d));
    stages = stages.slice(1);
  } else {
    input = [...(coll?.docs.values() ?? [])];
  }

  const results = runPipeline(ctx, input, stages, letVars);
  if (writer) {
    if ('$out' in writer) writeOut(ctx, writer.$out, results);
    else writeMerge(ctx, writer.$merge, results);
    return { cursor: { firstBatch: [], id: Long.ZERO, ns: `${ctx.db}.${name}` }, ok: 1 };
  }
  const batchSize = typeof cmd.cursor.batchSize === 'number' ? cmd.cursor.batchSize : undefined;
  const cursor = ctx.engine.cursors.create(`${ctx.db}.${name ?? '$cmd.aggregate'}`, results, { batchSize });
  return { cursor: { firstBatch: cursor.batch, id: cursor.id, ns: cursor.ns }, ok: 1 };
};
