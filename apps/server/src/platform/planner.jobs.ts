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
import type { DbHandle } from './db.js';
import type { Job } from './jobs.js';

export const PLANNER_EVERY_MS = 6 * 3600_000;

export function plannerJobs(dbh: Pick<DbHandle, 'db' | 'dialect'>): Job[] {
  if (dbh.dialect !== 'sqlite') return [];
  return [
    {
      name: 'sqlite-optimize',
      everyMs: PLANNER_EVERY_MS,
      run: async () => {
        await sql`pragma optimize=0x10002`.execute(dbh.db);
      },
    },
  ];
}
