/**
 * The database every test talks to, over a real socket: a real MongoDB when MONGODB_URI is set,
 * otherwise one embedded MongoDB-compatible server per test process, journaling to a temporary folder.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../server/embedded-mongo';

let embedded: Promise<EmbeddedMongo> | undefined;

/** Base URI of the test server (no database name in the path). */
export async function testMongoUri(): Promise<string> {
  if (process.env.MONGODB_URI) return process.env.MONGODB_URI;
  if (!embedded) {
    const dbpath = mkdtempSync(path.join(tmpdir(), 'parley-test-db-'));
    // Test data is worthless once the run ends; without this every run leaves its journal behind in /tmp.
    process.once('exit', () => rmSync(dbpath, { recursive: true, force: true }));
    embedded = startEmbeddedMongo({ port: 0, dbpath });
  }
  return (await embedded).uri;
}

/** A database name no other test uses, so suites never see each other's data. */
export function uniqueDbName(prefix = 'test'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** Stops the embedded server if this process started one. */
export async function stopTestMongo(): Promise<void> {
  if (!embedded) return;
  const server = await embedded;
  embedded = undefined;
  await server.stop();
}
