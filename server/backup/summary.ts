/** The one-line summaries the dump and restore commands and Parley's scheduled backups print. */
import type { DumpSummary } from './dump';
import type { RestoreSummary } from './restore';

const count = (n: number) => n.toLocaleString('en-US');

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

export function describeDump(summary: DumpSummary): string {
  return (
    `dumped ${plural(summary.collections, 'collection', 'collections')}, ${plural(summary.documents, 'document', 'documents')}, ` +
    `${formatBytes(summary.bytes)} in ${summary.seconds.toFixed(1)} s` +
    (summary.pointInTime ? ' (one point in time)' : ' (not one point in time: the server has no snapshot reads)')
  );
}

export function describeRestore(summary: RestoreSummary): string {
  return (
    `restored ${plural(summary.collections, 'collection', 'collections')}, ${plural(summary.documents, 'document', 'documents')}, ` +
    `${formatBytes(summary.bytes)} in ${summary.seconds.toFixed(1)} s` +
    (summary.indexes ? `, ${plural(summary.indexes, 'index', 'indexes')} built` : '') +
    (summary.duplicates
      ? `; ${plural(summary.duplicates, 'document was', 'documents were')} already there (same _id) and kept as they were`
      : '')
  );
}

/** The database a MongoDB URI names in its path, if any. */
export function databaseInUri(uri: string): string | undefined {
  const found = /^mongodb(?:\+srv)?:\/\/[^/?]+\/([^?]+)/.exec(uri)?.[1];
  return found ? decodeURIComponent(found) : undefined;
}
