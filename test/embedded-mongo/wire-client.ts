/**
 * A bare-bones MongoDB wire-protocol client for the conformance tests that must go below the driver:
 * legacy OP_QUERY handshakes, checksums, moreToCome, document sequences and deliberately broken messages.
 */
import net from 'node:net';
import { BSON, type Document } from 'bson';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
export const CHECKSUM_PRESENT = 1;
export const MORE_TO_COME = 2;

export interface WireReply {
  opCode: number;
  responseTo: number;
  doc: Document;
}

let requestCounter = 1000;

function header(length: number, requestId: number, opCode: number): Buffer {
  const buf = Buffer.alloc(16);
  buf.writeInt32LE(length, 0);
  buf.writeInt32LE(requestId, 4);
  buf.writeInt32LE(0, 8);
  buf.writeInt32LE(opCode, 12);
  return buf;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

function crc32c(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export interface OpMsgOptions {
  flags?: number;
  sequences?: Record<string, Document[]>;
  /** Replace the body section's bytes (to send malformed BSON). */
  rawBody?: Buffer;
}

export function opMsg(body: Document, opts: OpMsgOptions = {}): { requestId: number; bytes: Buffer } {
  const requestId = requestCounter++;
  const flags = opts.flags ?? 0;
  const parts: Buffer[] = [Buffer.from([0]), opts.rawBody ?? Buffer.from(BSON.serialize(body))];
  for (const [name, docs] of Object.entries(opts.sequences ?? {})) {
    const payload = Buffer.concat([Buffer.from(name + '\0'), ...docs.map((d) => Buffer.from(BSON.serialize(d)))]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(payload.length + 4);
    parts.push(Buffer.from([1]), size, payload);
  }
  const flagBuf = Buffer.alloc(4);
  flagBuf.writeUInt32LE(flags);
  const content = Buffer.concat([flagBuf, ...parts]);
  const checksumLength = flags & CHECKSUM_PRESENT ? 4 : 0;
  let bytes = Buffer.concat([header(16 + content.length + checksumLength, requestId, OP_MSG), content]);
  if (checksumLength) {
    const sum = Buffer.alloc(4);
    sum.writeUInt32LE(crc32c(bytes));
    bytes = Buffer.concat([bytes, sum]);
  }
  return { requestId, bytes };
}

export function opQuery(ns: string, query: Document): { requestId: number; bytes: Buffer } {
  const requestId = requestCounter++;
  const nsBuf = Buffer.from(ns + '\0');
  const skipReturn = Buffer.alloc(8);
  skipReturn.writeInt32LE(-1, 4);
  const flags = Buffer.alloc(4);
  const doc = Buffer.from(BSON.serialize(query));
  const content = Buffer.concat([flags, nsBuf, skipReturn, doc]);
  return { requestId, bytes: Buffer.concat([header(16 + content.length, requestId, OP_QUERY), content]) };
}

/** One TCP connection that reads replies as they come. */
export class WireConnection {
  private buffered = Buffer.alloc(0);
  private readonly replies: WireReply[] = [];
  private waiter: (() => void) | undefined;
  closed = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      while (this.buffered.length >= 4 && this.buffered.length >= this.buffered.readInt32LE(0)) {
        const length = this.buffered.readInt32LE(0);
        this.replies.push(parseReply(this.buffered.subarray(0, length)));
        this.buffered = this.buffered.subarray(length);
      }
      this.waiter?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiter?.();
    });
    socket.on('error', () => undefined);
  }

  static open(uri: string): Promise<WireConnection> {
    const { hostname, port } = new URL(uri.replace(/^mongodb:/, 'http:'));
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port || 27017), hostname.replace(/^\[|\]$/g, ''), () => resolve(new WireConnection(socket)));
      socket.once('error', reject);
    });
  }

  send(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** The next reply, or undefined if the server closed the connection or stayed silent for `timeoutMs`. */
  async next(timeoutMs = 5000): Promise<WireReply | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.replies.length === 0 && !this.closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = undefined;
    }
    return this.replies.shift();
  }

  /** Sends a command over OP_MSG and waits for its reply. */
  async command(body: Document, opts: OpMsgOptions = {}): Promise<WireReply | undefined> {
    const { bytes } = opMsg(body, opts);
    this.send(bytes);
    return this.next();
  }

  close(): void {
    this.socket.destroy();
  }
}

function parseReply(buf: Buffer): WireReply {
  const responseTo = buf.readInt32LE(8);
  const opCode = buf.readInt32LE(12);
  const docAt = (offset: number): Document => BSON.deserialize(buf.subarray(offset, offset + buf.readInt32LE(offset)));
  if (opCode === OP_REPLY) return { opCode, responseTo, doc: docAt(36) };
  if (opCode === OP_MSG) return { opCode, responseTo, doc: docAt(21) };
  throw new Error(`unexpected reply opcode ${opCode}`);
}

export { OP_MSG, OP_QUERY, OP_REPLY };
