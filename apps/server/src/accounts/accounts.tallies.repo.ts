/**
 * Exact person totals of a realm from `account_tallies` (migration 0037), which triggers keep in
 * every writing transaction: a handful of rows read instead of the accounts counted. Spread into
 * the account repository (accounts.repo.ts) beside the list queries.
 */
import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../platform/db.js';
import './accounts.tables.js';

export interface TallyFilter {
  realmId: string;
  disabled?: boolean | undefined;
  activated?: boolean | undefined;
}

export function accountTallyQueries(db: Db) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    /** The realm's person accounts that are (or are not) disabled and activated, exactly. */
    async tallyPersons(f: TallyFilter, trx: Db = db): Promise<number> {
      let q = trx
        .selectFrom('account_tallies')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('n'), sql.lit(0)).as('n'))
        .where('realm_id', '=', f.realmId)
        .where('kind', '=', 'person');
      if (f.disabled !== undefined) q = q.where('disabled', '=', f.disabled ? 1 : 0);
      if (f.activated !== undefined) q = q.where('activated', '=', f.activated ? 1 : 0);
      const row = await q.executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * Each combination's rows of differences folded into one (PostgreSQL), and combinations that
     * sum to 0 (a deleted realm's) dropped. One statement: the rows it deletes and the sums it
     * writes are of one snapshot, so a row a writer commits meanwhile is neither, and stays.
     * SQLite keeps one row per combination already: only its zeros go.
     */
    async foldTallies(trx: Db = db): Promise<void> {
      if (!pg) return void (await trx.deleteFrom('account_tallies').where('n', '=', 0).execute());
      await sql`
        with many as (
          select realm_id, kind, disabled, activated from account_tallies
          group by realm_id, kind, disabled, activated having count(*) > 1 or sum(n) = 0
        ), gone as (
          delete from account_tallies t using many m
          where t.realm_id = m.realm_id and t.kind = m.kind and t.disabled = m.disabled and t.activated = m.activated
          returning t.realm_id, t.kind, t.disabled, t.activated, t.n
        )
        insert into account_tallies (realm_id, kind, disabled, activated, n)
        select realm_id, kind, disabled, activated, sum(n) from gone
        group by realm_id, kind, disabled, activated having sum(n) <> 0`.execute(trx);
    },
  };
}
