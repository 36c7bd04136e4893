/**
 * A file system for the embedded store's journal that fails like a full (ENOSPC) or failing (EIO) disk on demand,
 * since a real full disk cannot be made on every machine: node's fs, whose writes throw while a fault is set.
 */
import fs from 'node:fs';
import type { FileSystem } from '../../server/embedded-mongo/storage';

/** node's fs, whose writes fail with `code` while `failing` is set. */
export function faultyFileSystem(): { fs: FileSystem; fail(code: 'ENOSPC' | 'EIO' | null): void } {
  let failing: string | null = null;
  const error = () => Object.assign(new Error(`${failing}: injected fault, write`), { code: failing, errno: -28, syscall: 'write' });
  const wrapped = new Proxy(fs, {
    get(target, key, receiver) {
      if (key === 'write')
        return (...args: unknown[]) => {
          if (!failing) return (target.write as (...a: unknown[]) => void)(...args);
          const callback = args.at(-1) as (err: Error) => void;
          const err = error();
          setImmediate(() => callback(err));
        };
      if (key === 'writeSync')
        return (...args: unknown[]) => {
          if (failing) throw error();
          return (target.writeSync as (...a: unknown[]) => number)(...args);
        };
      return Reflect.get(target, key, receiver);
    },
  });
  return {
    fs: wrapped,
    fail(code) {
      failing = code;
    },
  };
}
