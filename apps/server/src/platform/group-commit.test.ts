/**
 * Transactions through transactOn (platform/db.ts): on SQLite, those asked for in one turn of
 * the event loop commit together (group-commit.ts); on PostgreSQL each is its own. Either
 * way, each is all or nothing and its caller gets its own answer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { PG_URL } from '../test/harness.js';
import { openDb, syncRunnerOf, transactOn, type Db, type DbHandle } from './db.js';

let dbh: DbHandle | undefined;
let dir: string | undefined;
let pgTable: string | undefined;
afterEach(async () => {
  if (pgTable) await sql`drop table if exists ${sql.table(pgTable)}`.execute(dbh!.db);
  pgTable = undefined;
  await dbh?.close();
  dbh = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function openSqliteFile(): { db: Db; file: string } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-group-'));
  const file = path.join(dir, 'db.sqlite');
  dbh = openDb(`sqlite:${file}`);
  return { db: dbh.db, file };
}

const rowsOf = async (db: Db, table: string) =>
  (await sql<{ id: number }>`select id from ${sql.table(table)} order by id`.execute(db)).rows.map((r) => Number(r.id));

describe.each(['sqlite', 'postgres'] as const)('[%s] transactions asked together', (dialect) => {
  async function open(): Promise<{ db: Db; table: string }> {
    if (dialect === 'sqlite') {
      const { db } = openSqliteFile();
      await sql`create table probe (id integer primary key)`.execute(db);
      return { db, table: 'probe' };
    }
    dbh = openDb(PG_URL, { poolMax: 4 });
    pgTable = `group_probe_${process.pid}_${Date.now()}`;
    await sql`create table ${sql.table(pgTable)} (id integer primary key)`.execute(dbh.db);
    return { db: dbh.db, table: pgTable };
  }

  it('300 at once: each is all or nothing, the ones that throw leave nothing, every caller gets its own answer', async () => {
    const { db, table } = await open();
    const transact = transactOn(db);
    const n = 300;
    const results = await Promise.allSettled(
      Array.from({ length: n }, (_, i) =>
        transact(async (trx) => {
          await sql`insert into ${sql.table(table)} (id) values (${2 * i})`.execute(trx);
          await sql`insert into ${sql.table(table)} (id) values (${2 * i + 1})`.execute(trx);
          if (i % 7 === 3) throw new Error(`refused ${i}`);
          return i;
        }),
      ),
    );
    const kept: number[] = [];
    results.forEach((r, i) => {
      if (i % 7 === 3) expect(r).toEqual({ status: 'rejected', reason: new Error(`refused ${i}`) });
      else {
        expect(r).toEqual({ status: 'fulfilled', value: i });
        kept.push(2 * i, 2 * i + 1);
      }
    });
    expect(await rowsOf(db, table)).toEqual(kept);
  });

  it('one asked alone: what it wrote stays when it returns, goes when it throws', async () => {
    const { db, table } = await open();
    const transact = transactOn(db);
    expect(await transact(async (trx) => (await sql`insert into ${sql.table(table)} (id) values (1)`.execute(trx), 'kept'))).toBe('kept');
    await expect(
      transact(async (trx) => {
        await sql`insert into ${sql.table(table)} (id) values (2)`.execute(trx);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await rowsOf(db, table)).toEqual([1]);
  });

  it('a statement that fails inside one (a duplicate key) fails that one only', async () => {
    const { db, table } = await open();
    const transact = transactOn(db);
    await sql`insert into ${sql.table(table)} (id) values (7)`.execute(db);
    const results = await Promise.allSettled([10, 7, 11].map((id) => transact((trx) => sql`insert into ${sql.table(table)} (id) values (${id})`.execute(trx))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await rowsOf(db, table)).toEqual([7, 10, 11]);
  });
});

describe('[sqlite] one commit for the transactions of one turn', () => {
  const FRAME = 4096 + 24; // a WAL frame: a page and its header
  const walSize = (file: string) => fs.statSync(`${file}-wal`).size;

  it('50 transactions asked together append a few WAL frames, not one per transaction (asked one after another: at least one each)', async () => {
    const { db, file } = openSqliteFile();
    const transact = transactOn(db);
    await sql`create table probe (id integer primary key, v text)`.execute(db);
    const before = walSize(file);
    await Promise.all(Array.from({ length: 50 }, (_, i) => transact((trx) => sql`insert into probe values (${i}, 'x')`.execute(trx))));
    const together = (walSize(file) - before) / FRAME;
    expect(together).toBeLessThanOrEqual(4);
    const middle = walSize(file);
    for (let i = 50; i < 100; i++) await transact((trx) => sql`insert into probe values (${i}, 'x')`.execute(trx));
    expect((walSize(file) - middle) / FRAME).toBeGreaterThanOrEqual(50);
    expect(await rowsOf(db, 'probe')).toHaveLength(100);
  });

  it('none is answered before the commit that holds it: the first of a group is still unanswered while the last runs', async () => {
    const { db } = openSqliteFile();
    const transact = transactOn(db);
    await sql`create table probe (id integer primary key)`.execute(db);
    let firstAnswered = false;
    const first = transact((trx) => sql`insert into probe values (1)`.execute(trx)).then(() => (firstAnswered = true));
    const last = transact(async (trx) => {
      await sql`insert into probe values (2)`.execute(trx);
      // a macrotask's worth of waiting: an answer given before the commit would have run by now
      await new Promise((r) => setTimeout(r, 5));
      return firstAnswered;
    });
    expect(await last).toBe(false);
    expect(await first).toBe(true);
  });

  it('they run one at a time in the order asked, each seeing the writes of those before it', async () => {
    const { db } = openSqliteFile();
    const transact = transactOn(db);
    await sql`create table probe (id integer primary key)`.execute(db);
    const next = await Promise.all(
      Array.from({ length: 20 }, () =>
        transact(async (trx) => {
          const { rows } = await sql<{ top: number | null }>`select max(id) as top from probe`.execute(trx);
          const id = (rows[0]!.top ?? 0) + 1;
          await sql`insert into probe values (${id})`.execute(trx);
          return id;
        }),
      ),
    );
    expect(next).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('a commit that fails fails every transaction of its group, and none of their writes stay; the next ones commit', async () => {
    const { db } = openSqliteFile();
    const transact = transactOn(db);
    // A deferred foreign key is checked at COMMIT only: one orphan fails the group's commit.
    await sql`create table parent (id integer primary key)`.execute(db);
    await sql`create table child (id integer primary key, parent_id integer references parent (id) deferrable initially deferred)`.execute(db);
    const results = await Promise.allSettled([
      transact((trx) => sql`insert into parent values (1)`.execute(trx)),
      transact((trx) => sql`insert into child values (1, 99)`.execute(trx)),
      transact((trx) => sql`insert into parent values (2)`.execute(trx)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(await rowsOf(db, 'parent')).toEqual([]);
    await transact((trx) => sql`insert into parent values (3)`.execute(trx));
    expect(await rowsOf(db, 'parent')).toEqual([3]);
  });

  it('an error that ends the SQLite transaction (a trigger raising ROLLBACK) fails the whole group; the connection stays usable', async () => {
    const { db } = openSqliteFile();
    const transact = transactOn(db);
    await sql`create table probe (id integer primary key)`.execute(db);
    await sql`create table refused (id integer)`.execute(db);
    await sql`create trigger refuse before insert on refused begin select raise(rollback, 'refused here'); end`.execute(db);
    const results = await Promise.allSettled([
      transact((trx) => sql`insert into probe values (1)`.execute(trx)),
      transact((trx) => sql`insert into refused values (1)`.execute(trx)),
      transact((trx) => sql`insert into probe values (2)`.execute(trx)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await rowsOf(db, 'probe')).toEqual([]);
    await Promise.all([4, 5].map((id) => transact((trx) => sql`insert into probe values (${id})`.execute(trx))));
    expect(await rowsOf(db, 'probe')).toEqual([4, 5]);
  });
});

describe('[sqlite] what a group costs beside the database', () => {
  // SQLite's temporary files are unlinked at once and named etilqs_*: only the process's open
  // descriptors show them.
  const tempFilesOpen = () =>
    fs
      .readdirSync('/proc/self/fd')
      .map((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          return '';
        }
      })
      .filter((target) => target.includes('etilqs_'));

  it('transactions that change many pages together keep their savepoint copies in memory: no temporary file is written', async () => {
    const { db } = openSqliteFile();
    const transact = transactOn(db);
    await sql`create table probe (id integer primary key, v text)`.execute(db);
    await transact(async (trx) => {
      for (let i = 0; i < 2000; i++) await sql`insert into probe values (${i}, ${'x'.repeat(200)})`.execute(trx);
    });
    // ~120 pages changed by each, inside its savepoint: past SQLite's 64 KiB they went to a file
    await Promise.all(Array.from({ length: 10 }, (_, i) => transact((trx) => sql`update probe set v = ${String(i).repeat(200)}`.execute(trx))));
    expect(tempFilesOpen()).toEqual([]);
    expect(await sql<{ v: string }>`select distinct v from probe`.execute(db).then((r) => r.rows)).toEqual([{ v: '9'.repeat(200) }]);
  });

  it('writes outside a transaction batched in one turn keep their statement journals in memory too: no temporary file is written', async () => {
    const { db } = openSqliteFile();
    // a unique column: an update that could fail half-way needs a statement journal
    await sql`create table probe (id integer primary key, v text unique)`.execute(db);
    await transactOn(db)(async (trx) => {
      for (let i = 0; i < 2000; i++) await sql`insert into probe values (${i}, ${'x'.repeat(200) + i})`.execute(trx);
    });
    const run = syncRunnerOf(db)!;
    const update = 'update probe set v = ? || id';
    await Promise.all(Array.from({ length: 10 }, (_, i) => run(update, [String(i).repeat(200)], () => Promise.reject(new Error('not batched')))));
    expect(tempFilesOpen()).toEqual([]);
    expect(await sql<{ v: string }>`select v from probe where id = 7`.execute(db).then((r) => r.rows)).toEqual([{ v: '9'.repeat(200) + 7 }]);
  });

  it('outside the batch and the group transactions SQLite keeps its default temporary store (large sorts spill to disk)', async () => {
    const { db } = openSqliteFile();
    const store = async (on: Db) => (await sql<{ temp_store: number }>`pragma temp_store`.execute(on)).rows[0]!.temp_store;
    expect(await store(db)).toBe(0);
    expect(await transactOn(db)((trx) => store(trx))).toBe(2);
    expect(await store(db)).toBe(0);
    await expect(
      transactOn(db)(async (trx) => {
        await store(trx);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await store(db)).toBe(0);
  });

  it('a large transaction (a realm deleted or imported) commits in a group of its own: those asked before it are answered before it runs, those after it wait for it', async () => {
    const { db } = openSqliteFile();
    const transact = transactOn(db);
    await sql`create table probe (id integer primary key)`.execute(db);
    const answered: number[] = [];
    const small = (id: number) => transact((trx) => sql`insert into probe values (${id})`.execute(trx)).then(() => void answered.push(id));
    const before = [small(1), small(2)];
    const large = transact(
      async (trx) => {
        // a macrotask's worth of waiting: answers of a group committed before this one have come
        await new Promise((r) => setTimeout(r, 5));
        const seen = (await sql<{ n: number }>`select count(*) as n from probe`.execute(trx)).rows[0]!.n;
        await sql`insert into probe values (3)`.execute(trx);
        return { answeredWhileRunning: [...answered], seen };
      },
      { large: true },
    );
    const after = [small(4)];
    expect(await large).toEqual({ answeredWhileRunning: [1, 2], seen: 2 });
    await Promise.all([...before, ...after]);
    expect(answered).toEqual([1, 2, 4]);
    expect(await rowsOf(db, 'probe')).toEqual([1, 2, 3, 4]);
  });
});
