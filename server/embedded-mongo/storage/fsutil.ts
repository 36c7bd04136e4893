/** Small promise wrappers over node:fs callbacks (lower overhead than FileHandle on the hot write path). */
import fs from 'node:fs';

export function writeAt(fd: number, data: Buffer, position: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (offset: number): void => {
      fs.write(fd, data, offset, data.length - offset, position + offset, (err, written) => {
        if (err) return reject(err);
        if (offset + written < data.length) return step(offset + written);
        resolve();
      });
    };
    step(0);
  });
}

export function closeFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.close(fd, (err) => (err ? reject(err) : resolve())));
}

/** Makes a directory entry change (create, rename, unlink) durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
