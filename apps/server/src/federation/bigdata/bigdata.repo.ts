/**
 * SQL for the data centre's event queue (issue 14): append in the event's own transaction,
 * claim the head of each account's line with a lease, acknowledge (delete) or put back with
 * the next attempt's time. A claim is one conditional UPDATE — the same statement on SQLite
 * and PostgreSQL — so of several processes exactly one sends a row: on PostgreSQL a second
 * UPDATE of the row waits for the first and re-checks its WHERE against the claimed version.
 *
 * A claimed row's `next_attempt_at` is its lease's end: a process killed mid-send leaves a
 * row that simply becomes due again when the lease runs out, with no separate sweep.
 */
import { PostgresAdapter, sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../platform/db.js';
import type { BigdataEventTable } from './bigdata.tables.js';

export type BigdataEventRow = Selectable<BigdataEventTable>;
export type NewBigdataEvent = Omit<
  Insertable<BigdataEventTable>,
  'seq' | 'state' | 'attempts' | 'lease_until' | 'lease_holder' | 'last_error' | 'last_error_at'
>;

export interface QueueRealmFigures {
  realmId: string;
  pending: number;
  failing: number;
  oldestAt: number;
  lastError: string | null;
  lastErrorAt: number | null;
}

export function createBigdataRepo(db: Db) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  /**
   * Queues the events of one realm unless the realm is gone (false then: the realm's deletion
   * takes its reports along, and one written in the same moment must not fail the change it
   * reports). On PostgreSQL the realm's row is held (FOR KEY SHARE, as the foreign key check
   * would): a deletion under way is waited for and then seen, one not yet begun waits for this
   * transaction and takes the row along. On SQLite the writer holds the database anyway.
   * Many rows of the realm (a CSV import's accounts) cost one check and a statement per 500.
   */
  async function enqueueMany(realmId: string, rows: readonly NewBigdataEvent[], trx: Db = db): Promise<boolean> {
    const realm = trx.selectFrom('realms').select('id').where('id', '=', realmId);
    if (!(await (pg ? realm.forKeyShare() : realm).executeTakeFirst())) return false;
    // 13 values a row: 500 rows stay under SQLite's and PostgreSQL's parameter limits.
    for (let i = 0; i < rows.length; i += 500) {
      const batch = rows.slice(i, i + 500).map((r) => ({ ...r, realm_id: realmId, state: 'pending' as const, attempts: 0, lease_until: 0, lease_holder: '' }));
      await trx.insertInto('bigdata_events').values(batch).execute();
    }
    return true;
  }

  return {
    /** One event, in the transaction of the change it reports (enqueueMany's rules). */
    enqueue: (row: NewBigdataEvent, trx: Db = db): Promise<boolean> => enqueueMany(row.realm_id, [row], trx),
    enqueueMany,

    /**
     * Due rows that head their account's line (no earlier event of the account is left):
     * event n+1 of an account is never handed out while event n waits, fails or is being sent.
     */
    async dueHeads(now: number, limit: number): Promise<BigdataEventRow[]> {
      return db
        .selectFrom('bigdata_events as q')
        .selectAll('q')
        .where('q.next_attempt_at', '<=', now)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('bigdata_events as p')
                .select(sql.lit(1).as('one'))
                .whereRef('p.realm_id', '=', 'q.realm_id')
                .whereRef('p.account_id', '=', 'q.account_id')
                .whereRef('p.seq', '<', 'q.seq'),
            ),
          ),
        )
        .orderBy('q.seq')
        .limit(limit)
        .execute();
    },

    /** Takes the row for `holder` until `leaseUntil`; false when another process was first or it is no longer due. */
    async claim(seq: number, holder: string, now: number, leaseUntil: number): Promise<boolean> {
      const res = await db
        .updateTable('bigdata_events')
        .set((eb) => ({ state: 'sending', lease_holder: holder, lease_until: leaseUntil, next_attempt_at: leaseUntil, attempts: eb('attempts', '+', 1) }))
        .where('seq', '=', seq)
        .where('next_attempt_at', '<=', now)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('bigdata_events as p')
                .select(sql.lit(1).as('one'))
                .whereRef('p.realm_id', '=', 'bigdata_events.realm_id')
                .whereRef('p.account_id', '=', 'bigdata_events.account_id')
                .whereRef('p.seq', '<', 'bigdata_events.seq'),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** The data centre answered 2xx: the event is done. */
    async acknowledge(seq: number): Promise<void> {
      await db.deleteFrom('bigdata_events').where('seq', '=', seq).execute();
    },

    /** Back in line for `nextAt`, with the reason; only while `holder` still holds it. */
    async release(seq: number, holder: string, nextAt: number, error: string, now: number): Promise<void> {
      await db
        .updateTable('bigdata_events')
        .set({ state: 'pending', lease_holder: '', lease_until: 0, next_attempt_at: nextAt, last_error: error.slice(0, 200), last_error_at: now })
        .where('seq', '=', seq)
        .where('lease_holder', '=', holder)
        .execute();
    },

    /** The monitor's figures per realm: waiting, failing (last attempt failed), oldest, latest error. */
    async figures(): Promise<QueueRealmFigures[]> {
      const counts = await db
        .selectFrom('bigdata_events')
        .select((eb) => [
          'realm_id',
          eb.fn.countAll<number>().as('pending'),
          eb.fn.sum<number>(eb.case().when('last_error', 'is not', null).then(1).else(0).end()).as('failing'),
          eb.fn.min<number>('created_at').as('oldest_at'),
          eb.fn.max<number>('last_error_at').as('last_error_at'),
        ])
        .groupBy('realm_id')
        .orderBy('realm_id')
        .execute();
      const latest = await db
        .selectFrom('bigdata_events as e')
        .innerJoin(
          (eb) =>
            eb
              .selectFrom('bigdata_events')
              .select((x) => ['realm_id', x.fn.max<number>('last_error_at').as('m')])
              .groupBy('realm_id')
              .as('x'),
          (j) => j.onRef('x.realm_id', '=', 'e.realm_id').onRef('x.m', '=', 'e.last_error_at'),
        )
        .select(['e.realm_id', 'e.last_error'])
        .execute();
      const errors = new Map(latest.map((r) => [r.realm_id, r.last_error]));
      return counts.map((c) => ({
        realmId: c.realm_id,
        pending: Number(c.pending),
        failing: Number(c.failing ?? 0),
        oldestAt: Number(c.oldest_at),
        lastError: errors.get(c.realm_id) ?? null,
        lastErrorAt: c.last_error_at === null ? null : Number(c.last_error_at),
      }));
    },
  };
}

export type BigdataRepo = ReturnType<typeof createBigdataRepo>;
