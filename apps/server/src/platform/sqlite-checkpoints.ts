/**
 * SQLite's WAL checkpoints on a thread of their own (issues 13 and 14 benches).
 *
 * By default the connection that commits runs a checkpoint whenever the WAL passes 1,000 pages:
 * it copies them into the database file and syncs it, inside that commit, on the event loop.
 * One commit in a few dozen then blocked the server for milliseconds; averaged over an
 * issuance's commit it was ~0.4 ms of a ~0.7 ms wall time, during which no other request was
 * served. Here the server's connection never checkpoints (`wal_autocheckpoint = 0`) and a
 * worker thread with its own connection to the same file runs PASSIVE checkpoints every
 * `everyMs`: they neither wait for nor block readers and writers, and durability is the
 * same (synchronous = NORMAL: the WAL is synced before its pages are copied, as before).
 *
 * Should the worker fail to start or stop on its own, the connection checkpoints itself again
 * (the default), so the WAL never grows without bound. Closing stops the worker before the
 * connection closes, so the connection is the last one and folds the WAL into the file.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** SQLite's default threshold, restored when the worker is gone. */
const DEFAULT_AUTOCHECKPOINT = 1000;

// CommonJS, evaluated: the server is bundled into one file, so the worker cannot be a module of its own.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or gone: the next turn tries again */ }
}, workerData.everyMs);
parentPort.postMessage('ready');
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  process.exit(0);
});
`;

export interface CheckpointOptions {
  /** how often the worker checkpoints (ms) */
  everyMs?: number;
  /** the driver's module path (tests name a missing one to see the fallback) */
  driver?: string;
}

export interface BackgroundCheckpoints {
  /** resolves once the worker has its connection; false when it could not start (the connection checkpoints itself) */
  ready: Promise<boolean>;
  /** stops the worker; the connection checkpoints itself again */
  stop(): Promise<void>;
}

export function startBackgroundCheckpoints(sqlite: SQLite.Database, file: string, opts: CheckpointOptions = {}): BackgroundCheckpoints {
  const driver = opts.driver ?? createRequire(import.meta.url).resolve('better-sqlite3');
  sqlite.pragma('wal_autocheckpoint = 0');
  let running = true;
  const fallBack = () => {
    if (!running) return;
    running = false;
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`);
  };
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, everyMs: opts.everyMs ?? 250 } });
  // the process may end while the worker waits for its next turn
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const ready = new Promise<boolean>((resolve) => {
    worker.once('message', () => resolve(true));
    worker.once('error', () => {
      fallBack();
      resolve(false);
    });
    worker.once('exit', () => {
      fallBack();
      resolve(false);
    });
  });
  return {
    ready,
    async stop() {
      fallBack();
      worker.postMessage('stop');
      const late = setTimeout(() => void worker.terminate(), 2000);
      await exited;
      clearTimeout(late);
    },
  };
}
