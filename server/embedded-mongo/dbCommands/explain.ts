/** explain: which index (if any) answers a find, count, distinct, update, delete or aggregate's leading $match. */
import type { Document } from 'bson';
import { CommandError, ErrorCodes } from '../errors';
import { compileFilter, matches, parseSort } from '../query';
import { isPlainObject } from '../values';
import { SERVER_VERSION } from './admin';
import { collectionName, type Handler } from './context';

/** Where each explainable command keeps its filter. */
function filterOf(name: string, inner: Document): Document {
  const pick = (v: unknown): Document => (isPlainObject(v) ? v : {});
  switch (name) {
    case 'find':
      return pick(inner.filter);
    case 'count':
    case 'distinct':
    case 'findAndModify':
      return pick(inner.query);
    case 'update':
      return pick(Array.isArray(inner.updates) ? inner.updates[0]?.q : undefined);
    case 'delete':
      return pick(Array.isArray(inner.deletes) ? inner.deletes[0]?.q : undefined);
    case 'aggregate': {
      const first = Array.isArray(inner.pipeline) ? inner.pipeline[0] : undefined;
      return isPlainObject(first) && isPlainObject(first.$match) ? first.$match : {};
    }
    default:
      throw new CommandError(ErrorCodes.IllegalOperation, `Explain for ${name} is not supported`);
  }
}

export const explain: Handler = (cmd, ctx) => {
  const inner = cmd.explain;
  if (!isPlainObject(inner))
    throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'explain' is the wrong type, expected type 'object'");
  const name = Object.keys(inner)[0] ?? '';
  const collName = collectionName(inner, name);
  const filter = filterOf(name, inner);
  const matcher = compileFilter(filter);
  const coll = ctx.engine.get(ctx.db, collName);
  const sort = name === 'find' ? parseSort(inner.sort) : undefined;
  const limit = name === 'find' && typeof inner.limit === 'number' ? Math.abs(inner.limit) : 0;
  const candidates = coll?.candidates(filter, sort, limit > 0);
  let scan: Document = { stage: 'COLLSCAN', filter, direction: 'forward' };
  if (candidates?.index) {
    const ixscan = {
      stage: candidates.index.name === '_id_' ? 'IDHACK' : 'IXSCAN',
      indexName: candidates.index.name,
      keyPattern: candidates.index.key,
      direction: candidates.direction ?? 'forward',
    };
    scan = { stage: 'FETCH', ...(candidates.exact ? {} : { filter }), inputStage: ixscan };
  }
  // An index-backed sort needs no SORT stage: the scan already returns the documents in order.
  if (sort && !candidates?.ordered)
    scan = { stage: 'SORT', sortPattern: inner.sort, ...(limit ? { limitAmount: limit } : {}), inputStage: scan };
  else if (limit) scan = { stage: 'LIMIT', limitAmount: limit, inputStage: scan };
  const reply: Document = {
    explainVersion: '1',
    queryPlanner: { namespace: `${ctx.db}.${collName}`, parsedQuery: filter, winningPlan: scan, rejectedPlans: [] },
  };
  if (cmd.verbosity === 'executionStats' || cmd.verbosity === 'allPlansExecution') {
    let examined = 0;
    let returned = 0;
    for (const doc of candidates?.docs ?? []) {
      examined++;
      if (candidates?.exact || matches(matcher, doc)) returned++;
      if (limit && candidates?.ordered && returned >= limit) break;
    }
    if (limit) returned = Math.min(returned, limit);
    reply.executionStats = {
      executionSuccess: true,
      nReturned: returned,
      totalDocsExamined: examined,
      totalKeysExamined: candidates?.index ? examined : 0,
    };
  }
  reply.serverInfo = { host: 'localhost', version: SERVER_VERSION };
  reply.command = inner;
  reply.ok = 1;
  return reply;
};
