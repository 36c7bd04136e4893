/** Directory fsyncs: they make a directory entry change (create, rename, unlink) durable. */
import fs from 'node:fs';

/** Windows cannot open a directory for syncing; NTFS journals directory changes itself. */
const DIRECTORY_SYNC = process.platform !== 'win32';

export async function fsyncDir(dir: string): Promise<void> {
  if (!DIRECTORY_SYNC) return;
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function fsyncDirSync(dir: string): void {
  if (!DIRECTORY_SYNC) return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
