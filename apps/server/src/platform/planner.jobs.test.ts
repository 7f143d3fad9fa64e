/** SQLite's planner statistics are refreshed by the job runner, not only at start (planner.jobs.ts). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openDb, type DbHandle } from './db.js';
import { plannerJobs } from './planner.jobs.js';

let dbh: DbHandle | undefined;
let dir = '';
afterEach(async () => {
  await dbh?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('a table that grew after the start gets planner statistics from the sqlite-optimize job', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-planner-'));
  dbh = openDb(`sqlite:${path.join(dir, 'p.sqlite')}`);
  const { db } = dbh;
  await sql`create table grows (id integer primary key, actor text not null)`.execute(db);
  await sql`create index grows_actor on grows (actor)`.execute(db);
  // the start's analysis saw it empty
  await sql`pragma optimize=0x10002`.execute(db);
  await sql`with recursive n(v) as (select 1 union all select v + 1 from n where v < 20000) insert into grows (actor) select 'a' || (v % 500) from n`.execute(
    db,
  );
  // rows of sqlite_stat1 for the table (the statistics table itself exists once anything was analysed)
  const stats = async () => {
    const made = await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(db);
    if (made.rows.length === 0) return 0;
    return Number((await sql<{ n: number }>`select count(*) as n from sqlite_stat1 where tbl = 'grows'`.execute(db)).rows[0]?.n ?? 0);
  };
  const before = await stats();
  const [job] = plannerJobs(dbh);
  expect(job?.name).toBe('sqlite-optimize');
  await job!.run();
  expect(await stats()).toBeGreaterThan(before);
});

it('is a SQLite job only: PostgreSQL analyses on its own', () => {
  expect(plannerJobs({ dialect: 'postgres', db: undefined as never })).toEqual([]);
});
