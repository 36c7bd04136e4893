/** The contract between the embedded server's query engine and its storage (see ./index.ts for the rules). */
import type { Document } from 'bson';

export interface IndexSpec {
  name: string;
  key: Record<string, number | string>;
  unique?: boolean;
  sparse?: boolean;
  expireAfterSeconds?: number;
  partialFilterExpression?: Document;
  [option: string]: unknown;
}

export type WriteOp =
  | { op: 'insert'; db: string; coll: string; doc: Document }
  | { op: 'replace'; db: string; coll: string; doc: Document }
  | { op: 'delete'; db: string; coll: string; id: unknown }
  | { op: 'createCollection'; db: string; coll: string; options: Document }
  | { op: 'dropCollection'; db: string; coll: string }
  | { op: 'dropDatabase'; db: string }
  | { op: 'renameCollection'; db: string; from: string; toDb: string; to: string }
  | { op: 'createIndex'; db: string; coll: string; spec: IndexSpec }
  | { op: 'dropIndex'; db: string; coll: string; name: string };

export interface CollectionImage {
  options: Document;
  indexes: IndexSpec[];
  docs: Document[];
}

/** db -> collection -> image */
export type DataImage = Map<string, Map<string, CollectionImage>>;

export interface Storage {
  /** Snapshot plus journal replay; an empty Map for a new dbpath. Takes the dbpath lock. */
  load(): Promise<DataImage>;
  /**
   * After load: how to read the live state (synchronously) for background snapshots, and how to put the live
   * state back to what is on disk after a write that could not be journaled (nothing half-applied stays).
   */
  attach(image: () => DataImage, reset?: (durable: DataImage) => void): void;
  /** Null while writes are taken; otherwise why not (a full or failing disk), until writes resume by themselves. */
  writeProblem(): { code: string; message: string } | null;
  /** One command's writes; resolves only once they are durable on disk. */
  append(ops: WriteOp[]): Promise<void>;
  /** Resolves once no background compaction is running or about to start: the files then stay as they are until the next write. */
  settled(): Promise<void>;
  /** Flushes, writes a final snapshot when anything changed, releases the lock. */
  close(): Promise<void>;
}
