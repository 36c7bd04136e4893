/**
 * MongoDB wire protocol framing: the messages drivers send (OP_QUERY for the legacy handshake, OP_MSG for
 * everything else) and the replies this server writes (OP_REPLY, OP_MSG).
 */

import type { Document } from 'bson';
import * as BSON from 'bson';
import { CommandError, ErrorCodes } from './errors';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE = 48_000_000;
export const MAX_WRITE_BATCH_SIZE = 100_000;

const CHECKSUM_PRESENT = 1 << 0;
const MORE_TO_COME = 1 << 1;
const EXHAUST_ALLOWED = 1 << 16;
const KNOWN_FLAGS = CHECKSUM_PRESENT | MORE_TO_COME | EXHAUST_ALLOWED;

export interface MessageHeader {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

/** A command as this server sees it, whatever message carried it. */
export interface IncomingCommand {
  header: MessageHeader;
  /** Body with kind-1 document sequences merged in as arrays. */
  body: Document;
  /** Byte size of each document of each kind-1 sequence, by identifier (for per-document size limits). */
  sequenceSizes: Map<string, number[]>;
  /** OP_QUERY handshake: answer with OP_REPLY. */
  legacy: boolean;
  /** OP_MSG moreToCome: the client expects no reply. */
  moreToCome: boolean;
}

export function readHeader(buf: Buffer): MessageHeader {
  return {
    length: buf.readInt32LE(0),
    requestId: buf.readInt32LE(4),
    responseTo: buf.readInt32LE(8),
    opCode: buf.readInt32LE(12),
  };
}

function invalidBson(detail: string): CommandError {
  return new CommandError(ErrorCodes.InvalidBSON, `invalid bson in message: ${detail}`);
}

/** Reads one BSON document at `offset`, checking its declared length against what is left of the message. */
function readDocument(buf: Buffer, offset: number, end: number): { doc: Document; size: number } {
  if (offset + 5 > end) throw invalidBson('document extends past the end of the message');
  const size = buf.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw invalidBson(`bad document length ${size}`);
  if (buf[offset + size - 1] !== 0) throw invalidBson('document is not terminated by a zero byte');
  try {
    const doc = BSON.deserialize(buf.subarray(offset, offset + size));
    return { doc, size };
  } catch (err) {
    throw invalidBson((err as Error).message);
  }
}

function readCString(buf: Buffer, offset: number, end: number): { value: string; next: number } {
  const zero = buf.indexOf(0, offset);
  if (zero < 0 || zero >= end) throw invalidBson('unterminated string');
  return { value: buf.toString('utf8', offset, zero), next: zero + 1 };
}

/**
 * Parses a complete message (header included). Throws CommandError for malformed content that can still be
 * answered; `header` is always readable because the caller framed the message by its length.
 */
export function parseMessage(buf: Buffer): IncomingCommand {
  const header = readHeader(buf);
  if (header.opCode === OP_MSG) return parseOpMsg(buf, header);
  if (header.opCode === OP_QUERY) return parseOpQuery(buf, header);
  if (header.opCode === OP_COMPRESSED) {
    throw new CommandError(ErrorCodes.BadValue, 'compression is not supported by this server');
  }
  throw new CommandError(ErrorCodes.BadValue, `Unsupported opcode ${header.opCode}`);
}

function parseOpMsg(buf: Buffer, header: MessageHeader): IncomingCommand {
  const flags = buf.readUInt32LE(16);
  // Required flag bits live in the low 16 bits: an unknown one there means the message cannot be understood.
  const unknownRequired = flags & 0xffff & ~KNOWN_FLAGS;
  if (unknownRequired) throw new CommandError(ErrorCodes.BadValue, `Unrecognized OP_MSG flags: ${unknownRequired}`);
  let end = buf.length;
  if (flags & CHECKSUM_PRESENT) {
    end -= 4;
    const expected = buf.readUInt32LE(end);
    if (crc32c(buf.subarray(0, end)) !== expected) throw new CommandError(ErrorCodes.BadValue, 'Invalid OP_MSG checksum');
  }
  let offset = 20;
  let body: Document | undefined;
  const sequences = new Map<string, Document[]>();
  const sequenceSizes = new Map<string, number[]>();
  while (offset < end) {
    const kind = buf[offset];
    offset += 1;
    if (kind === 0) {
      if (body) throw invalidBson('OP_MSG has more than one body section');
      const read = readDocument(buf, offset, end);
      body = read.doc;
      offset += read.size;
    } else if (kind === 1) {
      if (offset + 4 > end) throw invalidBson('truncated document sequence');
      const size = buf.readInt32LE(offset);
      const seqEnd = offset + size;
      if (size < 5 || seqEnd > end) throw invalidBson('bad document sequence length');
      const name = readCString(buf, offset + 4, seqEnd);
      let pos = name.next;
      const docs: Document[] = [];
      const sizes: number[] = [];
      while (pos < seqEnd) {
        const read = readDocument(buf, pos, seqEnd);
        docs.push(read.doc);
        sizes.push(read.size);
        pos += read.size;
      }
      if (sequences.has(name.value)) throw invalidBson(`duplicate document sequence ${name.value}`);
      sequences.set(name.value, docs);
      sequenceSizes.set(name.value, sizes);
      offset = seqEnd;
    } else {
      throw invalidBson(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!body) throw invalidBson('OP_MSG has no body section');
  for (const [name, docs] of sequences) {
    if (name in body) throw new CommandError(ErrorCodes.BadValue, `Duplicate field ${name} in OP_MSG`);
    body[name] = docs;
  }
  return { header, body, sequenceSizes, legacy: false, moreToCome: (flags & MORE_TO_COME) !== 0 };
}

function parseOpQuery(buf: Buffer, header: MessageHeader): IncomingCommand {
  let offset = 20;
  const ns = readCString(buf, offset, buf.length);
  offset = ns.next + 8; // numberToSkip, numberToReturn
  const { doc } = readDocument(buf, offset, buf.length);
  // Drivers may wrap the command as { $query: {...}, $readPreference: ... }.
  const query = (doc.$query && typeof doc.$query === 'object' ? doc.$query : doc) as Document;
  const dot = ns.value.indexOf('.');
  const db = dot < 0 ? ns.value : ns.value.slice(0, dot);
  if (!ns.value.endsWith('.$cmd')) {
    throw new CommandError(ErrorCodes.BadValue, 'OP_QUERY is only supported for commands (the hello handshake)');
  }
  const body: Document = { ...query, $db: db };
  return { header, body, sequenceSizes: new Map(), legacy: true, moreToCome: false };
}

let nextRequestId = 1;

function header(length: number, responseTo: number, opCode: number): Buffer {
  const buf = Buffer.allocUnsafe(16);
  buf.writeInt32LE(length, 0);
  buf.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  buf.writeInt32LE(responseTo, 8);
  buf.writeInt32LE(opCode, 12);
  return buf;
}

export function encodeOpMsg(reply: Document, responseTo: number): Buffer {
  const body = BSON.serialize(reply);
  const head = header(16 + 4 + 1 + body.length, responseTo, OP_MSG);
  const flagsAndKind = Buffer.alloc(5);
  return Buffer.concat([head, flagsAndKind, body]);
}

export function encodeOpReply(reply: Document, responseTo: number): Buffer {
  const body = BSON.serialize(reply);
  const head = header(16 + 20 + body.length, responseTo, OP_REPLY);
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(8, 0); // AwaitCapable, as mongod sets it
  // cursorID 0 (8 bytes), startingFrom 0
  fields.writeInt32LE(1, 16);
  return Buffer.concat([head, fields, body]);
}

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

/** CRC-32C (Castagnoli), the checksum OP_MSG carries when its checksumPresent flag is set. */
export function crc32c(buf: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < buf.length; i++) crc = CRC32C_TABLE[(crc ^ buf[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
