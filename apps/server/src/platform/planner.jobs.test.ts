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

it('keeps no figures of a nearly empty table: a lookup joined to it by primary key uses the key, not a scan', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-planner-'));
  dbh = openDb(`sqlite:${path.join(dir, 'p.sqlite')}`);
  const { db } = dbh;
  await sql`create table people (realm text not null, id text primary key, name text not null)`.execute(db);
  await sql`create index people_name on people (realm, name)`.execute(db);
  await sql`create table links (realm text not null, user text not null, person text not null, primary key (realm, user))`.execute(db);
  await sql`insert into people values ('r', 'p0', 'admin')`.execute(db);
  await sql`insert into links values ('r', 'u0', 'p0')`.execute(db);
  await sql`create table big (id integer primary key, actor text not null)`.execute(db);
  await sql`create index big_actor on big (actor)`.execute(db);
  await sql`with recursive n(v) as (select 1 union all select v + 1 from n where v < 5000) insert into big (actor) select 'a' || (v % 50) from n`.execute(db);
  // a first start: one account (the admin), one link
  const [job] = plannerJobs(dbh);
  await job!.run();
  // the rows keep coming after the analysis, as sign-ins add accounts
  for (let i = 1; i < 200; i++) {
    await sql`insert into people values ('r', ${`p${i}`}, ${`n${i}`})`.execute(db);
    await sql`insert into links values ('r', ${`u${i}`}, ${`p${i}`})`.execute(db);
  }
  const plan = await sql<{ detail: string }>`explain query plan select p.* from links l left join people p on p.realm = l.realm and p.id = l.person
    where l.realm = 'r' and l.user = 'u7'`.execute(db);
  const details = plan.rows.map((r) => r.detail);
  expect(details.some((d) => d.startsWith('SCAN'))).toBe(false);
  expect(details.join(' | ')).toMatch(/SEARCH p USING INDEX/);
  // a table large enough keeps its figures
  const tables = await sql<{ tbl: string }>`select distinct tbl from sqlite_stat1`.execute(db);
  expect(tables.rows.map((r) => r.tbl)).toEqual(['big']);
});

it('is a SQLite job only: PostgreSQL analyses on its own', () => {
  expect(plannerJobs({ dialect: 'postgres', db: undefined as never })).toEqual([]);
});
