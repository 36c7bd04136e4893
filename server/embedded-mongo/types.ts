/**
 * The storage contract (implemented in ./storage by the durability layer; ./memory-storage is the
 * in-memory stand-in). Kept here too so the query engine compiles on its own.
 */
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

export type DataImage = Map<string, Map<string, CollectionImage>>;

export interface Storage {
  load(): Promise<DataImage>;
  attach(image: () => DataImage): void;
  append(ops: WriteOp[]): Promise<void>;
  close(): Promise<void>;
}
