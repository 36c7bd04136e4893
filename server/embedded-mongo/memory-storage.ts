import type { DataImage, Storage, WriteOp } from './types';

/** Storage that keeps nothing: the live state in memory is all there is (dbpath unset). */
export class MemoryStorage implements Storage {
  async load(): Promise<DataImage> {
    return new Map();
  }

  attach(): void {}

  append(_ops: WriteOp[]): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {}
}
