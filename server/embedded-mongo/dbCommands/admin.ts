/** Handshake, diagnostics and session commands. */
import type { Document } from 'bson';
import { CommandError, ErrorCodes } from '../errors';
import { MAX_BSON_OBJECT_SIZE, MAX_MESSAGE_SIZE, MAX_WRITE_BATCH_SIZE } from '../protocol';
import type { Handler } from './context';

export const SERVER_VERSION = '7.0.0';
const startedAt = Date.now();

/** A standalone server: no setName, no topologyVersion (so drivers poll instead of streaming). */
export const hello: Handler = (cmd, ctx) => {
  const legacy = 'isMaster' in cmd || 'ismaster' in cmd;
  const reply: Document = {};
  if (cmd.helloOk === true) reply.helloOk = true;
  reply[legacy ? 'ismaster' : 'isWritablePrimary'] = true;
  Object.assign(reply, {
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE,
    maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  });
  return reply;
};

export const ping: Handler = () => ({ ok: 1 });

export const buildInfo: Handler = () => ({
  version: SERVER_VERSION,
  gitVersion: 'parley-embedded-mongo',
  modules: [],
  allocator: 'system',
  javascriptEngine: 'none',
  sysInfo: 'deprecated',
  versionArray: [7, 0, 0, 0],
  openssl: { running: 'disabled' },
  buildEnvironment: {},
  bits: 64,
  debug: false,
  maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
  storageEngines: ['embedded'],
  ok: 1,
});

const PARAMETERS: Document = {
  featureCompatibilityVersion: { version: '7.0' },
  authenticationMechanisms: [],
  maxBSONDepth: 200,
  cursorTimeoutMillis: 600000,
};

export const getParameter: Handler = (cmd) => {
  const reply: Document = {};
  const all = cmd.getParameter === '*' || (typeof cmd.getParameter === 'object' && cmd.getParameter !== null);
  for (const [name, value] of Object.entries(PARAMETERS)) {
    if (all || name in cmd) reply[name] = value;
  }
  if (Object.keys(reply).length === 0) throw new CommandError(ErrorCodes.InvalidOptions, 'no option found to get');
  reply.ok = 1;
  return reply;
};

export const whatsmyuri: Handler = (_cmd, ctx) => ({ you: ctx.remoteAddress, ok: 1 });

export const connectionStatus: Handler = () => ({
  authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] },
  ok: 1,
});

export const hostInfo: Handler = () => ({
  system: { currentTime: new Date(), hostname: 'localhost', cpuAddrSize: 64, numCores: 1 },
  os: { type: process.platform, name: process.platform },
  extra: {},
  ok: 1,
});

export const serverStatus: Handler = (_cmd, ctx) => ({
  host: 'localhost',
  version: SERVER_VERSION,
  process: 'embedded-mongo',
  pid: process.pid,
  uptime: Math.floor((Date.now() - startedAt) / 1000),
  uptimeMillis: Date.now() - startedAt,
  localTime: new Date(),
  connections: { current: ctx.connectionId },
  metrics: { cursor: { open: { total: ctx.engine.cursors.size } } },
  opcounters: { ...ctx.engine.opcounters },
  ok: 1,
});

export const getCmdLineOpts: Handler = () => ({ argv: process.argv, parsed: {}, ok: 1 });

export const getLog: Handler = (cmd) =>
  cmd.getLog === '*' ? { names: ['global', 'startupWarnings'], ok: 1 } : { totalLinesWritten: 0, log: [], ok: 1 };

/** Sessions live in the driver only: lsid is accepted everywhere and ignored. */
export const endSessions: Handler = () => ({ ok: 1 });

/**
 * mongod answers IllegalOperation (20) here, but the driver swaps any code-20 write error for an unrelated
 * "retryWrites=false" hint; OperationNotSupportedInTransaction keeps this message in front of the developer.
 */
export const transactionsUnsupported = (): never => {
  throw new CommandError(
    ErrorCodes.OperationNotSupportedInTransaction,
    'Transaction numbers are only allowed on a replica set member or mongos: transactions need a replica set; set MONGODB_URI',
  );
};

export const authenticationUnsupported: Handler = () => {
  throw new CommandError(
    ErrorCodes.AuthenticationFailed,
    'Authentication failed: the embedded server has no users; connect without credentials',
  );
};
