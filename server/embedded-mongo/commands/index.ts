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
    return handler(body, ctx);
  } catch (err) {
    const error = toCommandError(err);
    if (error.code === ErrorCodes.InternalError)
      ctx.log(`embedded-mongo: ${Object.keys(body)[0]} failed: ${(err as Error).stack ?? error.message}`);
    return error.toReply();
  }
}
