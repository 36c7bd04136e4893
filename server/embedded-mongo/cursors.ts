/** Open cursors: the rest of a query result, handed out batch by batch through getMore. */
import * as BSON from 'bson';
import { type Document, Long } from 'bson';
import { CommandError, ErrorCodes } from './errors';
import { MAX_BSON_OBJECT_SIZE } from './protocol';

const DEFAULT_FIRST_BATCH = 101;
/** Room left in a 16 MB reply for the cursor envelope around the documents. */
const BATCH_BYTES = MAX_BSON_OBJECT_SIZE - 16 * 1024;
/** mongod's cursorTimeoutMillis default. */
export const CURSOR_IDLE_TIMEOUT_MS = 10 * 60 * 1000;

interface OpenCursor {
  ns: string;
  docs: Document[];
  pos: number;
  lastUsed: number;
  map?: (doc: Document) => Document;
}

export interface CursorReply {
  id: Long;
  ns: string;
  batch: Document[];
}

export class CursorStore {
  private readonly open = new Map<number, OpenCursor>();

  get size(): number {
    return this.open.size;
  }

  /** `max` documents at most (Infinity: as many as fit in a reply). */
  private takeBatch(cursor: OpenCursor, max: number): Document[] {
    const batch: Document[] = [];
    let bytes = 0;
    while (cursor.pos < cursor.docs.length && batch.length < max) {
      const raw = cursor.docs[cursor.pos];
      const doc = cursor.map ? cursor.map(raw) : raw;
      if (batch.length > 0) {
        const size = BSON.calculateObjectSize(doc);
        if (bytes + size > BATCH_BYTES) break;
        bytes += size;
      } else if (cursor.pos + 1 < cursor.docs.length && max > 1) {
        // The first document always goes in; its size matters only if another one may follow (not for findOne).
        bytes = BSON.calculateObjectSize(doc);
      }
      batch.push(doc);
      cursor.pos++;
    }
    return batch;
  }

  /**
   * Starts a cursor over `docs` and returns its first batch; the cursor id is 0 when everything fit
   * (or when `singleBatch` asks to close it). `map` is applied lazily (projection) as batches are cut.
   */
  create(
    ns: string,
    docs: Document[],
    opts: { batchSize?: number; singleBatch?: boolean; map?: (doc: Document) => Document } = {},
  ): CursorReply {
    const cursor: OpenCursor = { ns, docs, pos: 0, lastUsed: Date.now(), map: opts.map };
    // batchSize 0 on the first batch means "open the cursor, return nothing yet", as mongod does.
    const batch = this.takeBatch(cursor, opts.batchSize ?? DEFAULT_FIRST_BATCH);
    if (cursor.pos >= docs.length || opts.singleBatch) return { id: Long.ZERO, ns, batch };
    let id: number;
    do id = Math.floor(Math.random() * 2 ** 52) + 1;
    while (this.open.has(id));
    this.open.set(id, cursor);
    return { id: Long.fromNumber(id), ns, batch };
  }

  getMore(id: number, ns: string, batchSize: number | undefined): CursorReply {
    const cursor = this.open.get(id);
    if (!cursor) throw new CommandError(ErrorCodes.CursorNotFound, `cursor id ${id} not found`);
    if (cursor.ns !== ns) {
      throw new CommandError(
        ErrorCodes.Unauthorized,
        `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`,
      );
    }
    cursor.lastUsed = Date.now();
    const batch = this.takeBatch(cursor, batchSize && batchSize > 0 ? batchSize : Infinity);
    if (cursor.pos >= cursor.docs.length) {
      this.open.delete(id);
      return { id: Long.ZERO, ns, batch };
    }
    return { id: Long.fromNumber(id), ns, batch };
  }

  kill(id: number): boolean {
    return this.open.delete(id);
  }

  has(id: number): boolean {
    return this.open.has(id);
  }

  reap(now = Date.now()): void {
    for (const [id, cursor] of this.open) if (now - cursor.lastUsed > CURSOR_IDLE_TIMEOUT_MS) this.open.delete(id);
  }

  clear(): void {
    this.open.clear();
  }
}

/** Reads a cursor id sent by a client (Long, number or bigint). */
export function cursorIdOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Long) return v.toNumber();
  return undefined;
}
