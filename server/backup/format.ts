/**
 * mongodump's directory layout, as mongo-tools writes and reads it (mongodump/prepare.go, mongodump/metadata_dump.go,
 * mongorestore/filepath.go):
 *   <out>/<db>/<collection>.bson            the documents, BSON back to back, no header
 *   <out>/<db>/<collection>.metadata.json   {"options":…,"indexes":[…],"uuid":"…","collectionName":"…","type":"…"}
 *                                           in canonical Extended JSON ("options" left out when empty)
 *   <out>/prelude.json                      {"ServerVersion":"…","ToolVersion":"…"} (in <out>/<db>/ for a one-database dump)
 * With gzip every file gets `.gz` and is gzipped whole. A collection name is URL-query-escaped in file names
 * (Go's url.QueryEscape); a name whose escaped form is longer than 238 bytes is cut and followed by `%24` and a hash,
 * so `collectionName` in the metadata is what names the collection.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Binary, type Document, EJSON } from 'bson';

export const BSON_SUFFIX = '.bson';
export const METADATA_SUFFIX = '.metadata.json';
export const PRELUDE_FILE = 'prelude.json';
export const GZIP_SUFFIX = '.gz';

/** Largest document a dump file may hold: 16 MB plus the room mongod allows internal documents over it. */
const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024 + 16 * 1024;
const MAX_ESCAPED_NAME = 238;
const TRUNCATED_NAME = 208;

const UNRESERVED = /^[A-Za-z0-9\-_.~]$/;

/** Go's url.QueryEscape: bytes other than letters, digits and `-_.~` as %XX, a space as `+`. */
export function queryEscape(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (byte < 0x80 && UNRESERVED.test(ch)) out += ch;
    else if (ch === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Go's url.QueryUnescape; undefined for a malformed escape. */
export function queryUnescape(value: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '+') bytes.push(0x20);
    else if (ch === '%') {
      const hex = value.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(ch, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The file name (without extension) mongodump gives a collection. */
export function collectionFileBase(name: string): string {
  const escaped = queryEscape(name);
  if (escaped.length <= MAX_ESCAPED_NAME) return escaped;
  const hash = createHash('sha1').update(name, 'utf8').digest('base64url');
  return `${escaped.slice(0, TRUNCATED_NAME)}%24${hash}`;
}

export type CollectionType = 'collection' | 'view' | 'timeseries';

export type Metadata = {
  options: Document;
  indexes: Document[];
  /** 32 hex digits, or '' when the server gave none. */
  uuid: string;
  collectionName: string;
  type?: string;
};

/** The collection's UUID as mongodump writes it: the hex digits of a subtype-4 binary. */
export function uuidHex(value: unknown): string {
  return value instanceof Binary && value.sub_type === Binary.SUBTYPE_UUID ? Buffer.from(value.buffer).toString('hex') : '';
}

/** The metadata file's text: canonical Extended JSON with mongodump's keys in mongodump's order. */
export function metadataJson(meta: Metadata): string {
  const doc: Document = {};
  if (Object.keys(meta.options).length > 0) doc.options = meta.options;
  doc.indexes = meta.indexes;
  if (meta.uuid) doc.uuid = meta.uuid;
  doc.collectionName = meta.collectionName;
  if (meta.type) doc.type = meta.type;
  return EJSON.stringify(doc, { relaxed: false });
}

/**
 * Reads a metadata file's text (canonical, relaxed or legacy Extended JSON), keeping BSON types (Int32, Double,
 * Long…) so they reach the server as they were dumped. Throws when it is not a metadata document.
 */
export function parseMetadata(text: string, file: string): Partial<Metadata> & { indexes: Document[]; options: Document } {
  let parsed: unknown;
  try {
    parsed = EJSON.parse(text, { relaxed: false });
  } catch (err) {
    throw new Error(`${file} is not Extended JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${file} is not a metadata document`);
  const meta = parsed as Document;
  const indexes = meta.indexes ?? [];
  if (!Array.isArray(indexes)) throw new Error(`${file}: "indexes" is not an array`);
  const options = meta.options ?? {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new Error(`${file}: "options" is not a document`);
  return {
    options: options as Document,
    indexes: indexes as Document[],
    uuid: typeof meta.uuid === 'string' ? meta.uuid : undefined,
    collectionName: typeof meta.collectionName === 'string' ? meta.collectionName : undefined,
    type: typeof meta.type === 'string' ? meta.type : undefined,
  };
}

export function preludeJson(serverVersion: string, toolVersion: string): string {
  return JSON.stringify({ ServerVersion: serverVersion, ToolVersion: toolVersion });
}

/**
 * The documents of a `.bson` stream, one Buffer each (BSON back to back). Throws, naming the file and the byte
 * offset, on a size that cannot be a document or a stream that ends inside one.
 */
export async function* bsonDocuments(stream: Readable, file: string): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let length = 0;
  /** File offset of the first byte of parts[0]. */
  let offset = 0;
  let needed = 4;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    parts.push(chunk);
    length += chunk.length;
    if (length < needed) continue;
    let buf = parts.length === 1 ? parts[0] : Buffer.concat(parts, length);
    let pos = 0;
    for (;;) {
      if (buf.length - pos < 4) {
        needed = 4;
        break;
      }
      const size = buf.readInt32LE(pos);
      if (size < 5 || size > MAX_DOCUMENT_BYTES) throw new Error(`${file}: no BSON document at byte ${offset + pos} (size ${size})`);
      if (buf.length - pos < size) {
        needed = size;
        break;
      }
      if (buf[pos + size - 1] !== 0) throw new Error(`${file}: the BSON document at byte ${offset + pos} does not end with 0`);
      yield buf.subarray(pos, pos + size);
      pos += size;
    }
    offset += pos;
    buf = buf.subarray(pos);
    parts = buf.length ? [buf] : [];
    length = buf.length;
  }
  if (length > 0) throw new Error(`${file}: ends inside a BSON document at byte ${offset}`);
}
