/**
 * WAL checkpoints on a worker thread (sqlite-checkpoints.ts): the server's connection never
 * checkpoints, yet the WAL's pages reach the database file; a worker that cannot start leaves
 * the connection checkpointing itself; closing leaves no WAL behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb } from './db.js';
import { startBackgroundCheckpoints } from './sqlite-checkpoints.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-wal-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** ~4 MB of rows in separate commits: over SQLite's 1,000-page checkpoint threshold */
function fill(sqlite: SQLite.Database): void {
  sqlite.exec('create table if not exists t (id integer primary key, body blob)');
  const insert = sqlite.prepare('insert into t (body) values (?)');
  for (let i = 0; i < 1000; i++) insert.run(Buffer.alloc(4000, i % 251));
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never happened: ${what}`);
}

describe('SQLite WAL checkpoints on a worker thread', () => {
  it('the connection does not checkpoint, the worker does: the rows reach the database file', async () => {
    const file = path.join(dir, 'a.sqlite');
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    const bg = startBackgroundCheckpoints(sqlite, file, { everyMs: 20 });
    expect(await bg.ready).toBe(true);
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    fill(sqlite);
    // the file holds the table only once a checkpoint copied the WAL's pages into it
    await until(() => fs.statSync(file).size > 3_000_000, 'the database file grew past 3 MB');
    await bg.stop();
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    sqlite.close();
  });

  it('a worker that cannot start leaves the connection checkpointing itself', async () => {
    const file = path.join(dir, 'b.sqlite');
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    const bg = startBackgroundCheckpoints(sqlite, file, { driver: path.join(dir, 'no-such-driver.js') });
    expect(await bg.ready).toBe(false);
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    fill(sqlite);
    // the commit past the threshold checkpointed on its own
    expect(fs.statSync(file).size).toBeGreaterThan(3_000_000);
    await bg.stop();
    sqlite.close();
  });

  it('openDb with background checkpoints: writes are read back, and closing leaves no WAL file', async () => {
    const file = path.join(dir, 'c.sqlite');
    const dbh = openDb(`sqlite:${file}`, { backgroundCheckpoints: true });
    const { sql } = await import('kysely');
    await sql`create table t (id integer primary key, v text)`.execute(dbh.db);
    for (let i = 0; i < 50; i++) await sql`insert into t (v) values (${`row ${i}`})`.execute(dbh.db);
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(dbh.db);
    expect(rows[0]!.n).toBe(50);
    await dbh.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const again = new SQLite(file, { readonly: true });
    expect(again.prepare('select count(*) as n from t').get()).toEqual({ n: 50 });
    again.close();
  });
});
