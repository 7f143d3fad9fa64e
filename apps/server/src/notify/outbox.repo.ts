/** SQL for the outbox (issue 3): messages the `outbox` provider keeps for administrators. The table's one writer. */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../platform/db.js';
import type { OutboxTable } from './outbox.tables.js';

export type OutboxRow = Selectable<OutboxTable>;

export interface OutboxQuery {
  realmId?: string | undefined;
  channel?: 'mail' | 'sms' | undefined;
  recipient?: string | undefined;
  limit: number;
  offset: number;
}

export function createOutboxRepo(db: Db) {
  const filtered = (q: OutboxQuery, trx: Db) => {
    let s = trx.selectFrom('outbox');
    if (q.realmId) s = s.where('realm_id', '=', q.realmId);
    if (q.channel) s = s.where('channel', '=', q.channel);
    if (q.recipient) s = s.where('recipient', '=', q.recipient);
    return s;
  };
  return {
    async insertOutboxMessage(row: Insertable<OutboxTable>, trx: Db = db): Promise<void> {
      await trx.insertInto('outbox').values(row).execute();
    },
    listOutboxMessages(q: OutboxQuery, trx: Db = db): Promise<OutboxRow[]> {
      return filtered(q, trx).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
    },
    async countOutboxMessages(q: OutboxQuery, trx: Db = db): Promise<number> {
      const row = await filtered(q, trx)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async deleteOutboxMessagesBefore(before: number, trx: Db = db): Promise<number> {
      const res = await trx.deleteFrom('outbox').where('created_at', '<', before).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
    /** Realm deletion (issue 11): the messages the outbox kept for the realm. */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('outbox').where('realm_id', '=', realmId).execute();
    },
  };
}

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;
