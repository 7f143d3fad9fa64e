/**
 * SQL for the audit trail: the one writer of `audit_events`. Events are appended inside the
 * transaction of the change they describe (the caller passes its `trx`), read newest first
 * with a keyset cursor on (at, id), counted per day for the dashboard, and swept by age.
 */
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../platform/db.js';
import type { AuditEventTable } from './audit.tables.js';
import { prepare } from '../platform/prepared.js';

export type AuditRow = Selectable<AuditEventTable>;

/** A position in the newest-first order: the (at, id) of a row. */
export interface AuditKey {
  at: number;
  id: string;
}

export interface AuditQuery {
  /** the realm, or null for every realm (administrators of master only; the service decides) */
  realmId: string | null;
  actorId?: string | undefined;
  targetId?: string | undefined;
  /** the actor's id or user name, exactly */
  actor?: string | undefined;
  /** the target's id or name, exactly */
  target?: string | undefined;
  /** the account as actor or as target (an account's timeline) */
  accountId?: string | undefined;
  /** exact action, or a prefix ending in '.' (e.g. 'signin.') */
  action?: string | undefined;
  result?: 'ok' | 'fail' | undefined;
  /** epoch ms, inclusive */
  from?: number | undefined;
  /** epoch ms, exclusive */
  to?: number | undefined;
  /** rows strictly older than this key (next page) */
  before?: AuditKey | undefined;
  /** rows strictly newer than this key (previous page) */
  after?: AuditKey | undefined;
  limit: number;
}

/** The dashboard's figures: a set of realms (null: all), some actions, a time range. */
export interface AuditCountQuery {
  realmIds: readonly string[] | null;
  actions: readonly string[];
  from: number;
  to: number;
  /** minutes east of UTC of the reader's days (days start at local midnight) */
  utcOffsetMinutes: number;
}

export const DAY_MS = 86_400_000;

export function createAuditRepo(db: Db) {
  /** The local day number of `at`: an integer expression, identical text in SELECT and GROUP BY. */
  const dayOf = (offsetMinutes: number) => sql<number>`(at + ${sql.lit(Math.trunc(offsetMinutes) * 60_000)}) / ${sql.lit(DAY_MS)}`;

  const counted = (q: AuditCountQuery, trx: Db) => {
    let s = trx
      .selectFrom('audit_events')
      .where('action', 'in', [...q.actions])
      .where('at', '>=', q.from)
      .where('at', '<', q.to);
    if (q.realmIds) s = s.where('realm_id', 'in', [...q.realmIds]);
    return s;
  };

  // Every sign-in appends one: built once (prepared.ts), not per event.
  const insertEvent = prepare<AuditEventTable>(db, (p) =>
    db.insertInto('audit_events').values({
      id: p('id'),
      at: p('at'),
      realm_id: p('realm_id'),
      actor_id: p('actor_id'),
      actor_name: p('actor_name'),
      action: p('action'),
      target_type: p('target_type'),
      target_id: p('target_id'),
      target_name: p('target_name'),
      ip: p('ip'),
      user_agent: p('user_agent'),
      result: p('result'),
      detail: p('detail'),
    }),
  );

  return {
    async insertAuditEvent(row: AuditEventTable, trx: Db = db): Promise<void> {
      await insertEvent.run(row, trx);
    },
    /**
     * Newest first. With `after` the rows just newer than the key are read oldest first (so the
     * index walks forward from the key) and turned around: a previous page costs what a next one does.
     */
    async listAuditEvents(q: AuditQuery, trx: Db = db): Promise<AuditRow[]> {
      let s = trx.selectFrom('audit_events').selectAll();
      if (q.realmId !== null) s = s.where('realm_id', '=', q.realmId);
      if (q.actorId) s = s.where('actor_id', '=', q.actorId);
      if (q.targetId) s = s.where('target_id', '=', q.targetId);
      if (q.actor) {
        const v = q.actor;
        s = s.where((eb) => eb.or([eb('actor_id', '=', v), eb('actor_name', '=', v)]));
      }
      if (q.target) {
        const v = q.target;
        s = s.where((eb) => eb.or([eb('target_id', '=', v), eb('target_name', '=', v)]));
      }
      if (q.accountId) {
        const id = q.accountId;
        s = s.where((eb) => eb.or([eb('actor_id', '=', id), eb('target_id', '=', id)]));
      }
      if (q.action) {
        const a = q.action;
        // A prefix is a range on the index, not a LIKE (no escaping, same plan on both databases).
        s = a.endsWith('.') ? s.where('action', '>=', a).where('action', '<', `${a.slice(0, -1)}/`) : s.where('action', '=', a);
      }
      if (q.result) s = s.where('result', '=', q.result);
      if (q.from !== undefined) s = s.where('at', '>=', q.from);
      if (q.to !== undefined) s = s.where('at', '<', q.to);
      if (q.after) {
        const k = q.after;
        // the plain bound first: PostgreSQL starts the index scan from it; the OR alone was a filter
        // (a page 150 days back read 100,000 rows to throw them away)
        s = s.where('at', '>=', k.at).where((eb) => eb.or([eb('at', '>', k.at), eb.and([eb('at', '=', k.at), eb('id', '>', k.id)])]));
        const rows = await s.orderBy('at', 'asc').orderBy('id', 'asc').limit(q.limit).execute();
        return rows.reverse();
      }
      if (q.before) {
        const k = q.before;
        s = s.where('at', '<=', k.at).where((eb) => eb.or([eb('at', '<', k.at), eb.and([eb('at', '=', k.at), eb('id', '<', k.id)])]));
      }
      return s.orderBy('at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
    },
    /**
     * Events per local day, action and result. One range of the (realm_id, action, at, result,
     * target_id) index per realm and action (migration 0020): the table itself is not read.
     */
    async countByDay(q: AuditCountQuery, trx: Db = db): Promise<{ day: number; action: string; result: 'ok' | 'fail'; n: number }[]> {
      const day = dayOf(q.utcOffsetMinutes);
      const rows = await counted(q, trx)
        .select([day.as('day'), 'action', 'result', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy([day, 'action', 'result'])
        .execute();
      return rows.map((r) => ({ day: Number(r.day), action: r.action, result: r.result, n: Number(r.n) }));
    },
    /** Distinct targets of successful events (accounts that signed in) per local day, and over the whole range. */
    async distinctTargets(q: AuditCountQuery, trx: Db = db): Promise<{ perDay: { day: number; n: number }[]; total: number }> {
      const day = dayOf(q.utcOffsetMinutes);
      const base = () => counted(q, trx).where('result', '=', 'ok').where('target_id', 'is not', null);
      const [perDay, total] = await Promise.all([
        base()
          .select([day.as('day'), (eb) => eb.fn.count<number>('target_id').distinct().as('n')])
          .groupBy(day)
          .execute(),
        base()
          .select((eb) => eb.fn.count<number>('target_id').distinct().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { perDay: perDay.map((r) => ({ day: Number(r.day), n: Number(r.n) })), total: Number(total.n) };
    },
    /** Retention: removes events older than `before`, at most `batch` per call; answers how many. */
    async deleteAuditEventsBefore(before: number, batch = 5000, trx: Db = db): Promise<number> {
      const ids = trx.selectFrom('audit_events').select('id').where('at', '<', before).limit(batch);
      const res = await trx.deleteFrom('audit_events').where('id', 'in', ids).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;
