/** Command dispatch: the first field of the body names the command; every failure becomes an error reply. */
import type { Document } from 'bson';
import { validateDbName } from '../engine';
import { CommandError, ErrorCodes, toCommandError } from '../errors';
import * as admin from './admin';
import { aggregate } from './aggregate';
import type { CommandContext, Handler } from './context';
import * as crud from './crud';
import * as ddl from './ddl';
import { explain } from './explain';

export type { CommandContext } from './context';

import type { Engine } from '../engine';

const HANDLERS: Record<string, Handler> = {
  hello: admin.hello,
  isMaster: admin.hello,
  ismaster: admin.hello,
  ping: admin.ping,
  buildInfo: admin.buildInfo,
  buildinfo: admin.buildInfo,
  getParameter: admin.getParameter,
  whatsmyuri: admin.whatsmyuri,
  connectionStatus: admin.connectionStatus,
  hostInfo: admin.hostInfo,
  serverStatus: admin.serverStatus,
  getCmdLineOpts: admin.getCmdLineOpts,
  getLog: admin.getLog,
  endSessions: admin.endSessions,
  killAllSessions: admin.endSessions,
  killSessions: admin.endSessions,
  refreshSessions: admin.endSessions,
  commitTransaction: admin.transactionsUnsupported,
  abortTransaction: admin.transactionsUnsupported,
  saslStart: admin.authenticationUnsupported,
  authenticate: admin.authenticationUnsupported,
  listDatabases: ddl.listDatabases,
  dropDatabase: ddl.dropDatabase,
  create: ddl.create,
  drop: ddl.drop,
  listCollections: ddl.listCollections,
  renameCollection: ddl.renameCollection,
  createIndexes: ddl.createIndexes,
  listIndexes: ddl.listIndexes,
  dropIndexes: ddl.dropIndexes,
  deleteIndexes: ddl.dropIndexes,
  collStats: ddl.collStats,
  dbStats: ddl.dbStats,
  insert: crud.insert,
  find: crud.find,
  getMore: crud.getMore,
  killCursors: crud.killCursors,
  update: crud.update,
  delete: crud.deleteCommand,
  findAndModify: crud.findAndModify,
  findandmodify: crud.findAndModify,
  count: crud.count,
  distinct: crud.distinct,
  aggregate,
  explain,
};

/** Commands that touch no database, so `$db` need not be a valid database name. */
const SERVER_COMMANDS = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'buildInfo', 'buildinfo', 'endSessions']);

/** Commands mongod reads at a snapshot that the embedded server does not (snapshots.ts serves find). */
const SNAPSHOT_UNSUPPORTED = new Set(['aggregate', 'distinct', 'count']);

/** mongod's opcounters: inserted documents, update and delete statements, finds, getMores, every other command. */
function count(body: Document, name: string, counters: Engine['opcounters'], sequences: Map<string, number[]>): void {
  const statements = (field: string) => (Array.isArray(body[field]) ? body[field].length : (sequences.get(field)?.length ?? 1));
  if (name === 'insert') counters.insert += statements('documents');
  else if (name === 'update') counters.update += statements('updates');
  else if (name === 'delete') counters.delete += statements('deletes');
  else if (name === 'find') counters.query += 1;
  else if (name === 'getMore') counters.getmore += 1;
  else counters.command += 1;
}

/** Runs one command synchronously; returns its reply (an error reply on failure, never a throw). */
export function runCommand(body: Document, ctx: CommandContext): Document {
  try {
    const name = Object.keys(body)[0];
    if (name === undefined) throw new CommandError(ErrorCodes.CommandNotFound, "no such command: ''");
    const handler = Object.hasOwn(HANDLERS, name) ? HANDLERS[name] : undefined;
    if (!handler) throw new CommandError(ErrorCodes.CommandNotFound, `no such command: '${name}'`);
    if (body.startTransaction === true || body.autocommit === false || body.txnNumber !== undefined) {
      admin.transactionsUnsupported();
    }
    if (!SERVER_COMMANDS.has(name)) validateDbName(ctx.db);
    if (SNAPSHOT_UNSUPPORTED.has(name) && (body.readConcern as Document | undefined)?.level === 'snapshot') {
      throw new CommandError(ErrorCodes.InvalidOptions, `the embedded server answers snapshot reads with find only, not ${name}`);
    }
    count(body, name, ctx.engine.opcounters, ctx.sequenceSizes);
    return handler(body, ctx);
  } catch (err) {
    const error = toCommandError(err);
    if (error.code === ErrorCodes.InternalError)
      ctx.log(`embedded-mongo: ${Object.keys(body)[0]} failed: ${(err as Error).stack ?? error.message}`);
    return error.toReply();
  }
}
