/**
 * The server's SQLite file is checkpointed by wal-checkpoint.ts, its WAL flushed on libuv's
 * thread pool first (issue 14 bench: the flush was most of a 30–40 ms stall of the event loop).
 * SQLite only: PostgreSQL checkpoints in its own server process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDb } from './db.js';
import { checkpointOffTheLoop, type WalCheckpointer } from './wal-checkpoint.js';

let dir: string | undefined;
let conn: SQLite.Database | undefined;
let checkpointer: WalCheckpointer | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  checkpointer?.stop();
  checkpointer = undefined;
  conn?.close();
  conn = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A connection set up as the server's (db.ts), with a small threshold and a fast tick. */
function open(bytes = 256 * 1024) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-wal-'));
  const file = path.join(dir, 'db.sqlite');
  conn = new SQLite(file);
  conn.pragma('locking_mode = EXCLUSIVE');
  conn.pragma('journal_mode = WAL');
  conn.pragma('synchronous = NORMAL');
  conn.exec('create table probe (id integer primary key, v text)');
  let writes = 0;
  const insert = conn.prepare('insert into probe (v) values (?)');
  const write = () => {
    insert.run('x'.repeat(1000));
    writes++;
  };
  checkpointer = checkpointOffTheLoop(conn, `${file}-wal`, () => writes, { everyMs: 10, bytes, bytesPerWrite: 4096 });
  return { file, wal: `${file}-wal`, write, sqlite: conn };
}

const walDescriptors = (wal: string) =>
  fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      // SQLite deletes the WAL when it closes: a descriptor left open would read "… (deleted)"
      return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(wal);
    } catch {
      return false;
    }
  });

describe('[sqlite] WAL checkpoints off the event loop', () => {
  it('sustained writes: the WAL is checkpointed and reused, so it stays near its threshold while the database grows', async () => {
    const { file, wal, write } = open();
    const sizes: number[] = [];
    // ten bursts of 100 rows (each its own commit, ~0.5 MB of WAL) past a 256 KB threshold:
    // without checkpoints the WAL would hold all ~5 MB; with them each burst's frames go into
    // the database and the next burst starts the WAL over. Each burst waits for its checkpoint
    // (however slow a busy disk is).
    for (let burst = 1; burst <= 10; burst++) {
      for (let i = 0; i < 100; i++) write();
      sizes.push(fs.statSync(wal).size);
      await vi.waitFor(() => expect(checkpointer!.runs).toBeGreaterThanOrEqual(burst), { timeout: 10_000, interval: 5 });
    }
    expect(Math.max(...sizes)).toBeLessThan(1.5 * 1024 * 1024);
    expect(Math.max(...sizes)).toBe(sizes[0]);
    // every row is in the database file itself
    expect(fs.statSync(file).size).toBeGreaterThan(900 * 1024);
  });

  it('the WAL is flushed through a descriptor of its own on the thread pool (fs.fsync with a callback) before SQLite checkpoints', async () => {
    const { wal, write, sqlite } = open();
    const order: string[] = [];
    const fsync = vi.spyOn(fs, 'fsync').mockImplementation(((fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => {
      order.push(`fsync ${fs.readlinkSync(`/proc/self/fd/${fd}`) === wal ? 'wal' : 'other'}`);
      fs.fsyncSync(fd);
      setImmediate(() => cb(null));
    }) as typeof fs.fsync);
    const pragma = sqlite.pragma.bind(sqlite);
    vi.spyOn(sqlite, 'pragma').mockImplementation(((source: string, options?: SQLite.PragmaOptions) => {
      if (source.startsWith('wal_checkpoint')) order.push('checkpoint');
      return pragma(source, options);
    }) as typeof sqlite.pragma);
    for (let i = 0; i < 100; i++) write();
    await vi.waitFor(() => expect(checkpointer!.runs).toBe(1), { timeout: 2000 });
    expect(fsync).toHaveBeenCalled();
    expect(order.slice(0, 2)).toEqual(['fsync wal', 'checkpoint']);
  });

  it('a transaction held open across an await postpones the checkpoint; it runs once the transaction ends', async () => {
    const { write, sqlite } = open();
    sqlite.exec('begin');
    for (let i = 0; i < 100; i++) write();
    await sleep(200);
    expect(checkpointer!.runs).toBe(0);
    sqlite.exec('commit');
    await vi.waitFor(() => expect(checkpointer!.runs).toBe(1), { timeout: 2000 });
    expect(sqlite.prepare('select count(*) as n from probe').get()).toEqual({ n: 100 });
  });

  it("writes that stop short of the threshold are checkpointed after ten quiet checks (a second at the server's pace), once", async () => {
    const { write } = open(64 * 1024 * 1024);
    for (let i = 0; i < 10; i++) write();
    await sleep(40);
    expect(checkpointer!.runs).toBe(0);
    await vi.waitFor(() => expect(checkpointer!.runs).toBe(1), { timeout: 2000 });
    await sleep(200);
    expect(checkpointer!.runs).toBe(1);
  });

  it('a checkpoint that fails (the database locked) is tried again at the next check, and nothing is thrown', async () => {
    const { write, sqlite } = open();
    const pragma = sqlite.pragma.bind(sqlite);
    let refusals = 3;
    vi.spyOn(sqlite, 'pragma').mockImplementation(((source: string, options?: SQLite.PragmaOptions) => {
      if (source.startsWith('wal_checkpoint') && refusals-- > 0) throw Object.assign(new Error('database table is locked'), { code: 'SQLITE_LOCKED' });
      return pragma(source, options);
    }) as typeof sqlite.pragma);
    for (let i = 0; i < 100; i++) write();
    await vi.waitFor(() => expect(checkpointer!.runs).toBe(1), { timeout: 2000 });
    expect(refusals).toBeLessThan(0);
  });

  it('closing the server database stops it and leaves no descriptor of the WAL open', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-wal-'));
    const file = path.join(dir, 'db.sqlite');
    const dbh = openDb(`sqlite:${file}`);
    await dbh.db.schema
      .createTable('probe')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .execute();
    for (let i = 0; i < 20; i++)
      await dbh.db
        .insertInto('probe' as never)
        .values({ id: i } as never)
        .execute();
    // SQLite's own descriptor, and the checkpointer's once the quiet-second checkpoint ran
    await vi.waitFor(() => expect(walDescriptors(`${file}-wal`)).toHaveLength(2), { timeout: 3000 });
    await dbh.close();
    expect(walDescriptors(`${file}-wal`)).toEqual([]);
  });
});
