/**
 * The auth epoch on SQLite, where the server is the file's only writer (platform/db.ts
 * locking_mode EXCLUSIVE): the version read is kept while no statement that can change it has
 * run in the process (auth-cache.repo.ts), and every such statement — a write, in a
 * transaction or not, a failed one, a rollback — makes the next read go to the database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, soleWriterCountOf, type DbHandle } from '../platform/db.js';
import { migrateToLatest } from '../platform/migrations/index.js';
import { PG_URL } from '../test/harness.js';
import { createAuthEpochRepo } from './auth-cache.repo.js';

const opened: { dbh: DbHandle; dir?: string }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.dbh.close();
    if (o.dir) fs.rmSync(o.dir, { recursive: true, force: true });
  }
});

async function sqliteDb(opts: { shared?: boolean } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-epoch-'));
  const dbh = openDb(`sqlite:${path.join(dir, 'db.sqlite')}`, opts);
  opened.push({ dbh, dir });
  await migrateToLatest(dbh.db);
  return dbh;
}

const bump = (dbh: DbHandle) => sql`update auth_epoch set version = version + 1 where id = 1`.execute(dbh.db);

describe('auth epoch with a sole writer [sqlite]', () => {
  it('counts every statement that can change what the connection sees, and no read', async () => {
    const dbh = await sqliteDb();
    const writes = soleWriterCountOf(dbh.db)!;
    expect(writes).toBeTypeOf('function');
    let n = writes();
    await sql`select version from auth_epoch`.execute(dbh.db);
    await dbh.db.selectFrom('realms').selectAll().execute();
    expect(writes()).toBe(n);
    await bump(dbh);
    expect(writes()).toBeGreaterThan(n);
    n = writes();
    // a statement that fails (here: a primary key taken) is counted too
    await expect(sql`insert into auth_epoch (id, version) values (1, 0)`.execute(dbh.db)).rejects.toThrow();
    expect(writes()).toBeGreaterThan(n);
    n = writes();
    await dbh.db
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        throw new Error('give up');
      })
      .catch(() => undefined);
    // the rollback alone moved it
    expect(writes()).toBeGreaterThan(n);
  });

  it('a change is seen at the next read: in autocommit, inside an open transaction, and undone by its rollback', async () => {
    const dbh = await sqliteDb();
    const epoch = createAuthEpochRepo(dbh.db);
    const v0 = await epoch.read();
    expect(await epoch.read()).toBe(v0);
    await bump(dbh);
    expect(await epoch.read()).toBe(v0 + 1);
    expect(await epoch.read()).toBe(v0 + 1);
    let seenInside = 0;
    await dbh.db
      .transaction()
      .execute(async (trx) => {
        await sql`update auth_epoch set version = version + 1 where id = 1`.execute(trx);
        // another request's read while the transaction is open: the connection sees its writes
        seenInside = await epoch.read();
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(seenInside).toBe(v0 + 2);
    expect(await epoch.read()).toBe(v0 + 1);
    // a statement outside Kysely's query builder is counted like any other
    await sql.raw('update auth_epoch set version = version + 5 where id = 1').execute(dbh.db);
    const v1 = Number((await sql<{ version: number }>`select version from auth_epoch where id = 1`.execute(dbh.db)).rows[0]!.version);
    expect(v1).toBe(v0 + 6);
    expect(await epoch.read()).toBe(v1);
  });

  it('a shared file (tests playing a second process) and PostgreSQL have no count: the epoch is read every time', async () => {
    const shared = await sqliteDb({ shared: true });
    expect(soleWriterCountOf(shared.db)).toBeUndefined();
    const pg = openDb(PG_URL, { poolMax: 1 });
    opened.push({ dbh: pg });
    expect(soleWriterCountOf(pg.db)).toBeUndefined();
  });
});
