/**
 * SQLite's planner statistics kept current while the server runs. open.ts gathers them at start
 * (`pragma optimize`), and SQLite advises running it again now and then in a long-lived process:
 * a server up for months while a table grows from nearly empty would otherwise plan with the
 * figures of its start — without statistics the audit page's actor, target and timeline filters
 * walk the realm's whole trail (74–94 ms at 200,000 events instead of an index range).
 * 0x10002 analyses only the tables whose size moved enough to matter, with a row limit, so a run
 * is cheap. PostgreSQL's autovacuum analyses on its own.
 */
import { sql } from 'kysely';
import type { Db, DbHandle } from './db.js';
import type { Job } from './jobs.js';

export const PLANNER_EVERY_MS = 6 * 3600_000;

/**
 * Figures of a table analysed with fewer rows than this are dropped: the planner then assumes
 * a large table and takes its indexes. Figures of a nearly empty table ("1 row") made SQLite scan
 * it instead of using its primary key, and kept doing so as it grew, until a run found it 25
 * times larger (issue 14 bench: a fresh instance's first start analysed `accounts` with the
 * admin alone, and each federated sign-in's link-and-account read scanned every account). On a
 * table this small any plan is cheap; the next run analyses it again, and keeps the figures
 * once it is large enough for them to matter.
 */
export const PLANNER_MIN_ROWS = 1000;

/** `pragma optimize`, then the figures of tables below PLANNER_MIN_ROWS dropped (SQLite only). */
export async function gatherPlannerStats(db: Db): Promise<void> {
  await sql`pragma optimize=0x10002`.execute(db);
  const made = await sql<{ name: string }>`select name from sqlite_master where name in ('sqlite_stat1', 'sqlite_stat4')`.execute(db);
  const has = new Set(made.rows.map((r) => r.name));
  if (!has.has('sqlite_stat1')) return;
  // the first figure of a row is the table's row count when it was analysed
  const small = await sql<{ tbl: string }>`select distinct tbl from sqlite_stat1 where cast(stat as integer) < ${PLANNER_MIN_ROWS}`.execute(db);
  if (small.rows.length === 0) return;
  const tables = small.rows.map((r) => r.tbl);
  await sql`delete from sqlite_stat1 where tbl in (${sql.join(tables)})`.execute(db);
  if (has.has('sqlite_stat4')) await sql`delete from sqlite_stat4 where tbl in (${sql.join(tables)})`.execute(db);
  // the connection plans with the figures it loaded: reload them
  await sql`analyze sqlite_schema`.execute(db);
}

export function plannerJobs(dbh: Pick<DbHandle, 'db' | 'dialect'>): Job[] {
  if (dbh.dialect !== 'sqlite') return [];
  return [
    {
      name: 'sqlite-optimize',
      everyMs: PLANNER_EVERY_MS,
      run: () => gatherPlannerStats(dbh.db),
    },
  ];
}
