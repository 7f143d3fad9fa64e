/**
 * SQLite's WAL checkpoints, with their longest wait taken off the event loop (issue 14 bench:
 * "no event-loop blocking").
 *
 * SQLite checkpoints inside the commit that crosses wal_autocheckpoint: it fsyncs the WAL, copies
 * its pages into the database file and fsyncs that. All of it ran on the event loop: in a
 * federated sign-in storm ~1.2 checkpoints a second, each 30–40 ms with every request waiting
 * (fsync of 16 MB of WAL ~23 ms, of the database ~7 ms): event-loop delay p99 ~40 ms.
 *
 * Here this process decides when, and flushes the WAL first on libuv's thread pool (an fsync of
 * the file through a descriptor of our own: what SQLite's own fsync would have written). The
 * checkpoint that follows on the connection then finds little left to flush in the WAL, copies
 * the pages (page cache) and fsyncs the database file. Durability is SQLite's, unchanged: its
 * own fsyncs still run, in the same order; ours only comes first.
 *
 * When: once this many pages may have been written since the last checkpoint (counted writes ×
 * a generous estimate, or the WAL file grown by as much), checked a few times a second; and when
 * writes stopped, a last one after a short quiet so the WAL does not keep old frames for long.
 */
import fs from 'node:fs';
import type SQLite from 'better-sqlite3';

export interface WalCheckpointOptions {
  /** check every this many ms */
  everyMs?: number;
  /** checkpoint once about this many WAL bytes are new (16 MB: the 4,000 pages of before) */
  bytes?: number;
  /** estimate of WAL bytes a counted write adds (a federated sign-in: 7 writes, ~47 KB of WAL) */
  bytesPerWrite?: number;
}

export interface WalCheckpointer {
  /** checkpoints run so far (tests) */
  readonly runs: number;
  stop(): void;
}

export function checkpointOffTheLoop(sqlite: SQLite.Database, walFile: string, writes: () => number, opts: WalCheckpointOptions = {}): WalCheckpointer {
  const everyMs = opts.everyMs ?? 100;
  const bytes = opts.bytes ?? 16 * 1024 * 1024;
  const bytesPerWrite = opts.bytesPerWrite ?? 6 * 1024;
  sqlite.pragma('wal_autocheckpoint = 0');
  let fd: number | undefined;
  let busy = false;
  let stopped = false;
  let runs = 0;
  let writesAtLast = writes();
  let sizeAtLast = 0;
  let lastSeen = writesAtLast;
  let quietTicks = 0;

  function walSize(): number {
    try {
      return fs.statSync(walFile).size;
    } catch {
      return 0;
    }
  }

  function checkpoint(writesNow: number): void {
    busy = true;
    const done = () => {
      busy = false;
      if (stopped || !sqlite.open) return;
      // a transaction of a request holds the connection across an await: next tick
      if (sqlite.inTransaction) return;
      try {
        sqlite.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // (disk full, an I/O error) the writes fail too and say so; the next tick tries again
        return;
      }
      runs++;
      writesAtLast = writesNow;
      sizeAtLast = walSize();
    };
    try {
      fd ??= fs.openSync(walFile, 'r+');
    } catch {
      done();
      return;
    }
    fs.fsync(fd, done);
  }

  function tick(): void {
    if (busy || stopped || !sqlite.open) return;
    const writesNow = writes();
    const fresh = writesNow - writesAtLast;
    if (fresh === 0) return;
    const due = fresh * bytesPerWrite >= bytes || walSize() - sizeAtLast >= bytes;
    // after a burst, once writes have paused for a few ticks: the rest of the WAL goes too
    quietTicks = writesNow === lastSeen ? quietTicks + 1 : 0;
    lastSeen = writesNow;
    if (due || quietTicks >= 10) {
      quietTicks = 0;
      checkpoint(writesNow);
    }
  }

  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    get runs() {
      return runs;
    },
    stop() {
      stopped = true;
      clearInterval(timer);
      if (fd !== undefined) fs.closeSync(fd);
      fd = undefined;
    },
  };
}
