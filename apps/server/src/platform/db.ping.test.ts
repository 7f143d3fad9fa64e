/**
 * /readyz's database check on SQLite (db.ts ping): it takes and drops the write lock, and a
 * request's transaction open on the one connection means the database is working — the check
 * must not try to start a second transaction inside it and report the server unready.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { PG_URL } from '../test/harness.js';
import { openDb, type DbHandle } from './db.js';

let dbh: DbHandle | undefined;
let dir: string | undefined;
afterEach(async () => {
  await dbh?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('[sqlite] ready while a transaction of a request is open on the connection, and after it', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-ping-'));
  dbh = openDb(`sqlite:${path.join(dir, 'db.sqlite')}`);
  const db = dbh.db;
  await sql`create table t (v integer)`.execute(db);
  expect(await dbh.ping()).toBe(true);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let inside: boolean | undefined;
  const trx = db.transaction().execute(async (t) => {
    await sql`insert into t values (1)`.execute(t);
    inside = await dbh!.ping();
    await held;
  });
  for (let i = 0; i < 100 && inside === undefined; i++) await new Promise((r) => setTimeout(r, 5));
  expect(inside).toBe(true);
  release();
  await trx;
  // the transaction was not disturbed: its row is there
  expect((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows[0]!.n).toBe(1);
  expect(await dbh.ping()).toBe(true);
});

it('[postgres] ready while a transaction of a request holds a connection of the pool', async () => {
  dbh = openDb(PG_URL, { poolMax: 2 });
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let inside: boolean | undefined;
  const trx = dbh.db.transaction().execute(async (t) => {
    await sql`select 1`.execute(t);
    inside = await dbh!.ping();
    await held;
  });
  for (let i = 0; i < 200 && inside === undefined; i++) await new Promise((r) => setTimeout(r, 5));
  expect(inside).toBe(true);
  release();
  await trx;
  expect(await dbh.ping()).toBe(true);
});
