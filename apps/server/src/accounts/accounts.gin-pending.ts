/**
 * PostgreSQL only, for accounts.repo.ts insertPersons (the CSV import, issue 11). The trigram
 * (GIN) indexes of the contains search (migrations 0035/0036) cost most of a large import's
 * database time: each row goes to an index's pending list, and whenever a list
 * passes 4 MB (gin_pending_list_limit's default, every few thousand rows) the inserting
 * statement merges it into the index, with work_mem (4 MB) for it, many times per file. A
 * transaction writing at least PG_GIN_BULK_MIN rows lets its lists grow (set_config(…, true):
 * this transaction only) and merges them once at the end with maintenance_work_mem, still
 * inside the transaction, so no long list is left for the next sign-up to merge or a search to
 * read (100,000 rows into 100,000: ~35 % more rows/s). Meanwhile a concurrent insert elsewhere
 * in `accounts` that finds a list over its own 4 MB merges it, and pays for it.
 */
import { sql } from 'kysely';
import type { Db } from '../platform/db.js';

/** Smaller writes keep the defaults (their rows fill a list once at most); person-csv.test's 3,000-row import takes this path. */
export const PG_GIN_BULK_MIN = 2_000;
/** The GIN indexes of `accounts` this role may flush (gin_clean_pending_list asks for the owner's rights). */
const accountsGin = (owned: boolean) =>
  sql`select i.indexrelid from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
    where i.indrelid = 'accounts'::regclass and am.amname = 'gin' and pg_has_role(c.relowner, 'USAGE') = ${owned}`;
/** Raises the limit only when every such index can be flushed at the end; answers whether it did. */
export async function ginPendingInBulk(trx: Db): Promise<boolean> {
  const { rows } = await sql`select set_config('gin_pending_list_limit', '256MB', true), set_config('maintenance_work_mem', '256MB', true)
    where not exists (${accountsGin(false)})`.execute(trx);
  return rows.length > 0;
}
export const ginFlushPending = (trx: Db) => sql`select gin_clean_pending_list(g.indexrelid) from (${accountsGin(true)}) g`.execute(trx);
