/** TCP front end: frames messages per connection, runs commands in order, acknowledges writes once durable. */
import net from 'node:net';
import type { Document } from 'bson';
import { type CommandContext, runCommand } from './dbCommands';
import type { Engine } from './engine';
import { CommandError, ErrorCodes, toCommandError } from './errors';
import { encodeOpMsg, encodeOpReply, type IncomingCommand, MAX_MESSAGE_SIZE, OP_MSG, OP_QUERY, parseMessage, readHeader } from './protocol';

const HEADER_SIZE = 16;

/**
 * A write whose write concern says `j: false` is acknowledged once applied in memory, as a standalone mongod
 * acknowledges w:1 writes. Every other write (no write concern, `j: true`, `w` alone) waits for the journal:
 * stricter than mongod's default, so that an acknowledged write survives a crash unless its writer said otherwise.
 */
function inMemoryAck(body: Document): boolean {
  const concern = body.writeConcern as { j?: unknown } | undefined;
  return concern?.j === false;
}

/** Commands that change data: refused, before they touch anything, while the disk refuses writes. */
const WRITE_COMMANDS = new Set([
  'insert',
  'update',
  'delete',
  'findandmodify',
  'create',
  'drop',
  'dropdatabase',
  'createindexes',
  'dropindexes',
  'renamecollection',
  'collmod',
]);

function writesData(body: Document): boolean {
  const name = (Object.keys(body)[0] ?? '').toLowerCase();
  if (WRITE_COMMANDS.has(name)) return true;
  if (name !== 'aggregate' || !Array.isArray(body.pipeline)) return false;
  const last = body.pipeline.at(-1) as Document | undefined;
  return !!last && ('$out' in last || '$merge' in last);
}

/** mongod's answer to a write its disk cannot take: OutOfDiskSpace for ENOSPC, else an internal error. */
function diskRefusal(problem: { code: string; message: string }): Document {
  const code = problem.code === 'ENOSPC' ? ErrorCodes.OutOfDiskSpace : ErrorCodes.InternalError;
  return new CommandError(code, problem.message).toReply();
}

export class WireServer {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private nextConnectionId = 1;

  constructor(
    private readonly engine: Engine,
    private readonly log: (msg: string) => void,
  ) {
    this.server = net.createServer((socket) => this.accept(socket));
    this.server.maxConnections = 10_000;
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        this.server.on('error', (err) => this.log(`embedded-mongo: server error: ${err.message}`));
        resolve((this.server.address() as net.AddressInfo).port);
      });
    });
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private accept(socket: net.Socket): void {
    const connectionId = this.nextConnectionId++;
    // Read once: the getters behind it cost a lookup on every command otherwise.
    const remoteAddress = `${socket.remoteAddress}:${socket.remotePort}`;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    // Chunks are joined only once a whole message is there, so a 16 MB insert is not re-copied per packet.
    let chunks: Buffer[] = [];
    let total = 0;
    let queue: Promise<void> = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      while (total >= 4) {
        if (chunks[0].length < 4) chunks = [Buffer.concat(chunks, total)];
        const length = chunks[0].readInt32LE(0);
        if (length < HEADER_SIZE || length > MAX_MESSAGE_SIZE) {
          this.log(`embedded-mongo: connection ${connectionId} sent a message of invalid length ${length}; closing it`);
          socket.destroy();
          return;
        }
        if (total < length) break;
        const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
        const message = all.subarray(0, length);
        const rest = all.subarray(length);
        chunks = rest.length ? [rest] : [];
        total = rest.length;
        queue = queue
          .then(() => this.handle(socket, connectionId, remoteAddress, message))
          .catch((err: Error) => {
            this.log(`embedded-mongo: connection ${connectionId} failed: ${err.stack ?? err.message}`);
            socket.destroy();
          });
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }

  private async handle(socket: net.Socket, connectionId: number, remoteAddress: string, message: Buffer): Promise<void> {
    if (socket.destroyed) return;
    const header = readHeader(message);
    if (header.opCode !== OP_MSG && header.opCode !== OP_QUERY) {
      this.log(`embedded-mongo: connection ${connectionId} used unsupported opcode ${header.opCode}; closing it`);
      socket.destroy();
      return;
    }
    let command: IncomingCommand;
    try {
      command = parseMessage(message);
    } catch (err) {
      const reply = toCommandError(err).toReply();
      const moreToCome = header.opCode === OP_MSG && message.length >= 20 && (message.readUInt32LE(16) & 2) !== 0;
      if (!moreToCome) this.send(socket, reply, header.requestId, header.opCode === OP_QUERY);
      return;
    }
    const ctx: CommandContext = {
      engine: this.engine,
      db: typeof command.body.$db === 'string' ? command.body.$db : '',
      ops: [],
      connectionId,
      sequenceSizes: command.sequenceSizes,
      remoteAddress,
      log: this.log,
    };
    const problem = this.engine.storage.writeProblem();
    if (problem && writesData(command.body)) {
      if (!command.moreToCome) this.send(socket, diskRefusal(problem), header.requestId, command.legacy);
      return;
    }
    let reply = runCommand(command.body, ctx);
    if (ctx.ops.length) {
      const appended = this.engine.storage.append(ctx.ops);
      if (inMemoryAck(command.body)) {
        // Acknowledged once applied, as mongod does for { j: false }: the journal keeps writes in order, so any
        // later durable write's acknowledgement covers this one too. A failed journal fails every later write.
        appended.catch((err: unknown) => {
          // A disk that refuses writes is logged by the storage, once a minute.
          if (!this.engine.storage.writeProblem()) this.log(`embedded-mongo: journal write failed: ${(err as Error).message}`);
        });
      } else {
        try {
          await appended;
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          reply = diskRefusal(
            this.engine.storage.writeProblem() ?? {
              code: code ?? 'EIO',
              message: `write could not be made durable: ${(err as Error).message}`,
            },
          );
        }
      }
    }
    if (!command.moreToCome) this.send(socket, reply, header.requestId, command.legacy);
  }

  private send(socket: net.Socket, reply: Document, responseTo: number, legacy: boolean): void {
    if (socket.destroyed) return;
    let bytes: Buffer;
    try {
      bytes = legacy ? encodeOpReply(reply, responseTo) : encodeOpMsg(reply, responseTo);
    } catch (err) {
      const error = new CommandError(ErrorCodes.InternalError, `reply could not be encoded: ${(err as Error).message}`).toReply();
      bytes = legacy ? encodeOpReply(error, responseTo) : encodeOpMsg(error, responseTo);
    }
    socket.write(bytes);
  }
}
