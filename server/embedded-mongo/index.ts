/**
 * The embedded MongoDB-compatible server: what `npm test` and a fresh `npm start` use when MONGODB_URI is unset.
 * mongoose and the official driver talk to it over TCP exactly as to a standalone mongod.
 */
import { Engine } from './engine';
import { WireServer } from './server';
import { type FileSystem, openStorage, type StorageOptions } from './storage';

export interface EmbeddedMongoOptions {
  /** 0 = any free port; default 27017. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Folder for the journal and snapshots; undefined = memory only. */
  dbpath?: string;
  log?: (msg: string) => void;
  /** The file system the journal writes through (tests pass one that fails like a full disk). */
  fs?: FileSystem;
  /** How often a store whose disk refused a write checks whether it takes writes again (default 5 s). */
  retryWritesMs?: StorageOptions['retryWritesMs'];
}

export interface EmbeddedMongo {
  /** mongodb://127.0.0.1:PORT */
  uri: string;
  port: number;
  /** Null while the store takes writes; otherwise why it refuses them (a full or failing disk), until it can again. */
  writeProblem(): { code: string; message: string } | null;
  stop(): Promise<void>;
}

/** How often expired TTL documents and idle cursors are swept (mongod sweeps TTL every 60 s). */
const MONITOR_INTERVAL_MS = 2_000;

export async function startEmbeddedMongo(opts: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const log = opts.log ?? ((msg: string) => console.warn(msg));
  const host = opts.host ?? '127.0.0.1';
  const storage = openStorage(opts.dbpath, log, { fs: opts.fs, retryWritesMs: opts.retryWritesMs });
  const engine = new Engine(storage, log);
  engine.loadImage(await storage.load());
  storage.attach(
    () => engine.image(),
    (durable) => engine.replaceImage(durable),
  );
  const server = new WireServer(engine, log);
  let port: number;
  try {
    port = await server.listen(opts.port ?? 27017, host);
  } catch (err) {
    await storage.close();
    throw err;
  }

  let sweeping = false;
  const monitor = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    engine.cursors.reap();
    engine.snapshots.reap();
    // A store whose disk refuses writes deletes nothing it could not journal.
    if (storage.writeProblem()) {
      sweeping = false;
      return;
    }
    const ops = engine.expire();
    const done = ops.length ? storage.append(ops) : Promise.resolve();
    done
      .catch((err: Error) => log(`embedded-mongo: TTL deletions could not be journaled: ${err.message}`))
      .finally(() => {
        sweeping = false;
      });
  }, MONITOR_INTERVAL_MS);
  monitor.unref();

  let stopped: Promise<void> | undefined;
  return {
    uri: `mongodb://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    writeProblem: () => storage.writeProblem(),
    stop() {
      stopped ??= (async () => {
        clearInterval(monitor);
        await server.close();
        engine.cursors.clear();
        engine.snapshots.clear();
        await storage.close();
      })();
      return stopped;
    },
  };
}
