/**
 * Reads kept for a short while (a second for most: the widget settings, relay/widgets.ts), so that what every new
 * conversation or line asks of the database costs no read most of the time. Each owner (a database's models, one of
 * its models, or one cache object) has entries of its own, so several servers in one process (the specs') never share
 * them. A write through this process drops the entries it changes at once (`drop`); another process's write is seen
 * within the time kept.
 * The promise is kept, so reads at the same moment share one query; a failed read is not kept. At most 10,000
 * entries an owner (lru-cache, with its time to live).
 */
import { LRUCache } from 'lru-cache';
import type { Schema } from 'mongoose';

/** Mongoose's query writes that update documents: a schema's post hooks on them drop what a write may have changed. */
export const QUERY_UPDATES = ['updateOne', 'updateMany', 'findOneAndUpdate', 'findOneAndReplace', 'replaceOne'] as const;
/** Mongoose's query writes that delete documents. */
export const QUERY_DELETES = ['deleteOne', 'deleteMany', 'findOneAndDelete'] as const;

export type ShortReads<O extends object, V> = {
  /** The value of `key`, read with `read` unless a read of it younger than the time kept is there. */
  get(owner: O, key: string, read: () => Promise<V>): Promise<V>;
  /** Forgets `key`, or every key `which` accepts (the entries a write changed). */
  drop(owner: O, which: string | ((key: string) => boolean)): void;
};

export function shortReads<O extends object, V>(ttlMs: number): ShortReads<O, V> {
  const caches = new WeakMap<O, LRUCache<string, Promise<V>>>();
  const cacheOf = (owner: O): LRUCache<string, Promise<V>> => {
    let cache = caches.get(owner);
    if (!cache) {
      // lru-cache reads a ttl of 0 as kept for ever: a read kept for no time at all is kept for 1 ms.
      cache = new LRUCache<string, Promise<V>>({ max: 10_000, ttl: Math.max(1, ttlMs), ttlAutopurge: false });
      caches.set(owner, cache);
    }
    return cache;
  };
  return {
    get(owner, key, read) {
      const cache = cacheOf(owner);
      const kept = cache.get(key);
      if (kept) return kept;
      const value = read();
      value.catch(() => {
        if (cache.get(key) === value) cache.delete(key);
      });
      cache.set(key, value);
      return value;
    },
    drop(owner, which) {
      const cache = caches.get(owner);
      if (!cache) return;
      if (typeof which === 'string') cache.delete(which);
      else for (const key of [...cache.keys()]) if (which(key)) cache.delete(key);
    },
  };
}

/**
 * Drops every entry `reads` keeps for a model (its owner) whenever a document of the model is written through mongoose
 * in this process: any query update or deletion, and any save. For reads whose keys a write cannot be told from.
 */
export function dropOnEveryWrite<M extends object, V>(schema: Schema, reads: ShortReads<M, V>): void {
  for (const write of [...QUERY_UPDATES, ...QUERY_DELETES]) {
    schema.post(write, function () {
      reads.drop(this.model as unknown as M, () => true);
    });
  }
  schema.post('save', function () {
    reads.drop(this.constructor as unknown as M, () => true);
  });
}
