/**
 * platform/write-batch.ts through prepared statements (platform/prepared.ts), as the server runs
 * them: on SQLite, the writes asked for outside a transaction in one turn commit together, yet
 * each is answered only after its commit, keeps its own atomicity and its place in call order.
 * PostgreSQL has no batch (each statement is its own, on the pool): prepared.test.ts covers it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, transactOn, type Db, type DbHandle } from './db.js';
import { prepare } from './prepared.js';

const FRAME = 4096 + 24; // a WAL frame: a page and its header

let dbh: DbHandle | undefined;
let dir: string | undefined;
afterEach(async () => {
  await dbh?.close();
  dbh = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function open(): Promise<{ db: Db; file: string }> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-batch-'));
  const file = path.join(dir, 'db.sqlite');
  dbh = openDb(`sqlite:${file}`);
  await sql`create table counters (key text primary key, n integer not null)`.execute(dbh.db);
  return { db: dbh.db, file };
}

const walFrames = (file: string) => fs.statSync(`${file}-wal`).size / FRAME;

// the shape of the throttle's counters: an upsert that answers the new count
const hitOn = (db: Db) =>
  prepare<{ key: string }>(db, (p) =>
    db
      .insertInto('counters' as never)
      .values({ key: p('key'), n: 1 } as never)
      .onConflict((oc) => oc.column('key' as never).doUpdateSet({ n: sql`n + 1` } as never))
      .returning(['key', 'n'] as never),
  );
const countOf = async (db: Db, key: string) => Number((await sql<{ n: number }>`select n from counters where key = ${key}`.execute(db)).rows[0]?.n ?? 0);

describe('[sqlite] writes outside a transaction, batched per turn', () => {
  it('300 parallel upserts of 10 counters: every caller gets its own running count, the totals are exact, and it takes a few WAL frames, not one per write', async () => {
    const { db, file } = await open();
    const hit = hitOn(db);
    const before = walFrames(file);
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => hit.run<{ key: string; n: number }>({ key: `k${i % 10}` })));
    expect(walFrames(file) - before).toBeLessThanOrEqual(6);
    // in call order: the i-th call on a counter saw the count of the calls before it, plus one
    answers.forEach((a, i) => expect([a.rows[0]!.key, Number(a.rows[0]!.n)]).toEqual([`k${i % 10}`, Math.floor(i / 10) + 1]));
    for (let k = 0; k < 10; k++) expect(await countOf(db, `k${k}`)).toBe(30);
    // one after another, each is a commit of its own
    const middle = walFrames(file);
    for (let i = 0; i < 20; i++) await hit.run({ key: 'k0' });
    expect(walFrames(file) - middle).toBeGreaterThanOrEqual(20);
  });

  it('a batch whose commit fails (a deferred foreign key) answers no write as done unwritten: each runs again alone, only the orphan fails', async () => {
    const { db } = await open();
    // checked at COMMIT only: inside the batch the orphan's insert succeeds, its commit does not
    await sql`create table parent (id integer primary key)`.execute(db);
    await sql`create table child (id integer primary key, parent_id integer references parent (id) deferrable initially deferred)`.execute(db);
    const parent = prepare<{ id: number }>(db, (p) => db.insertInto('parent' as never).values({ id: p('id') } as never));
    const child = prepare<{ id: number; parent: number }>(db, (p) => db.insertInto('child' as never).values({ id: p('id'), parent_id: p('parent') } as never));
    const results = await Promise.allSettled([parent.run({ id: 1 }), child.run({ id: 1, parent: 99 }), child.run({ id: 2, parent: 1 }), parent.run({ id: 2 })]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    const ids = async (table: string) => (await sql<{ id: number }>`select id from ${sql.table(table)} order by id`.execute(db)).rows.map((r) => Number(r.id));
    expect(await ids('parent')).toEqual([1, 2]);
    expect(await ids('child')).toEqual([2]);
  });

  it('a write that fails (a constraint) fails alone: the others of its batch commit and are answered', async () => {
    const { db } = await open();
    await sql`create table uniq (id integer primary key)`.execute(db);
    await sql`insert into uniq values (7)`.execute(db);
    const insert = prepare<{ id: number }>(db, (p) => db.insertInto('uniq' as never).values({ id: p('id') } as never));
    const results = await Promise.allSettled([10, 7, 11, 7, 12].map((id) => insert.run({ id })));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    const ids = (await sql<{ id: number }>`select id from uniq order by id`.execute(db)).rows.map((r) => Number(r.id));
    expect(ids).toEqual([7, 10, 11, 12]);
  });

  it('an error that ends the whole transaction (a trigger raising ROLLBACK) costs only its own write: the rest of the batch runs again alone and stays', async () => {
    const { db } = await open();
    await sql`create table refused (id integer)`.execute(db);
    await sql`create trigger refuse before insert on refused begin select raise(rollback, 'refused here'); end`.execute(db);
    const hit = hitOn(db);
    const refuse = prepare<{ id: number }>(db, (p) => db.insertInto('refused' as never).values({ id: p('id') } as never));
    const results = await Promise.allSettled([hit.run({ key: 'x' }), refuse.run({ id: 1 }), hit.run({ key: 'x' })]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/refused here/);
    expect(await countOf(db, 'x')).toBe(2);
    // the connection is fine afterwards, batching again
    await Promise.all([hit.run({ key: 'y' }), hit.run({ key: 'y' })]);
    expect(await countOf(db, 'y')).toBe(2);
  });

  it('a write asked while a transaction of another caller is open never joins it: it outlives that rollback', async () => {
    const { db } = await open();
    const hit = hitOn(db);
    let inside!: () => void;
    const opened = new Promise<void>((r) => (inside = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const other = transactOn(db)(async (trx) => {
      await sql`insert into counters values ('theirs', 1)`.execute(trx);
      inside();
      // waiting on something outside the database, as a request's transaction may
      await held;
      throw new Error('rolled back');
    });
    await opened;
    const mine = hit.run({ key: 'mine' });
    // a few turns with the transaction still open: the write waits for the connection
    await new Promise((r) => setTimeout(r, 20));
    release();
    await expect(other).rejects.toThrow('rolled back');
    await mine;
    expect(await countOf(db, 'mine')).toBe(1);
    expect(await countOf(db, 'theirs')).toBe(0);
  });

  it('a write whose answer leads to a second write gets both committed in the same turn, for every caller', async () => {
    const { db } = await open();
    const hit = hitOn(db);
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await hit.run({ key: `first${i % 5}` });
        await hit.run({ key: `second${i % 5}` });
      }),
    );
    counting = false;
    // both writes of all 50 callers in the first turn's check phase (a turn per write would be 2, a commit per write 100)
    expect(turns).toBeLessThanOrEqual(1);
    expect(await countOf(db, 'second4')).toBe(10);
  });
});

describe('[sqlite] prepared statements inside a group commit (run on its connection at once)', () => {
  it('belong to their transaction: kept with it, undone with the member that throws, seen by its later queries; counted writes are exact across 200 members', async () => {
    const { db } = await open();
    const hit = hitOn(db);
    const transact = transactOn(db);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        transact(async (trx) => {
          const r = await hit.run<{ n: number }>({ key: `g${i % 4}` }, trx);
          // the member's own Kysely query sees the prepared statement's write
          const seen = Number((await sql<{ n: number }>`select n from counters where key = ${`g${i % 4}`}`.execute(trx)).rows[0]!.n);
          expect(seen).toBe(Number(r.rows[0]!.n));
          if (i % 5 === 0) throw new Error(`undone ${i}`);
          return seen;
        }),
      ),
    );
    const kept = results.filter((r) => r.status === 'fulfilled').length;
    expect(kept).toBe(160);
    // each member that threw took its increment back with it
    const total = (await Promise.all([0, 1, 2, 3].map((k) => countOf(db, `g${k}`)))).reduce((a, b) => a + b, 0);
    expect(total).toBe(160);
  });
});
