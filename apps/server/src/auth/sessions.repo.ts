/** SQL for console sessions (bearer tokens, stored only as keyed hashes): the `sessions` table's one writer. */
import type { Selectable } from 'kysely';
import { prepare } from '../platform/prepared.js';
import type { Db } from '../platform/db.js';
import type { SessionTable } from './sessions.tables.js';

export type Session = Selectable<SessionTable>;

export function createSessionRepo(db: Db) {
  // One per sign-in: built once (audit/prepared.ts), every column named.
  const insert = prepare<Session>(db, (p) =>
    db.insertInto('sessions').values({
      id: p('id'),
      realm_id: p('realm_id'),
      account_id: p('account_id'),
      token_hash: p('token_hash'),
      created_at: p('created_at'),
      expires_at: p('expires_at'),
      last_seen_at: p('last_seen_at'),
      revoked_at: p('revoked_at'),
      auth_time: p('auth_time'),
      ip: p('ip'),
      user_agent: p('user_agent'),
    }),
  );
  return {
    async insertSession(row: Session, trx: Db = db): Promise<void> {
      await insert.run(row, trx);
    },
    /** Live session by token hash; expiry and revocation are decided by the caller's clock. */
    findSessionByTokenHash(tokenHash: string, trx: Db = db): Promise<Session | undefined> {
      return trx.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    findSessionById(realmId: string, id: string, trx: Db = db): Promise<Session | undefined> {
      return trx.selectFrom('sessions').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
    },
    async touchSession(id: string, now: number, trx: Db = db): Promise<void> {
      await trx.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
    },
    async revokeSession(realmId: string, id: string, now: number, trx: Db = db): Promise<boolean> {
      const res = await trx
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('realm_id', '=', realmId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /** Ends every session of an account, optionally sparing one (password change, "sign out everywhere else"). */
    async revokeAccountSessions(realmId: string, accountId: string, now: number, exceptId?: string, trx: Db = db): Promise<number> {
      let q = trx
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('realm_id', '=', realmId)
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null);
      if (exceptId) q = q.where('id', '!=', exceptId);
      const res = await q.executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
    listAccountSessions(realmId: string, accountId: string, now: number, trx: Db = db): Promise<Session[]> {
      return trx
        .selectFrom('sessions')
        .selectAll()
        .where('realm_id', '=', realmId)
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .execute();
    },
    /** Sweep: rows past expiry (or revoked) for longer than `graceMs` go. */
    async deleteStaleSessions(now: number, graceMs: number, trx: Db = db): Promise<number> {
      const res = await trx
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<', now - graceMs), eb('revoked_at', '<', now - graceMs)]))
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
    /** Realm deletion (issue 11): every session of the realm. */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('sessions').where('realm_id', '=', realmId).execute();
    },
  };
}

export type SessionRepo = ReturnType<typeof createSessionRepo>;
