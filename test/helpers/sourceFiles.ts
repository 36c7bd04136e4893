import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Every file below `dir` (absolute paths, node_modules left out) whose name matches `names`, for the specs that read code. */
export function sourceFiles(dir: string, names: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full, names);
    return names.test(entry.name) ? [full] : [];
  });
}
