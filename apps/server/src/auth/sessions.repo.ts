/** SQL for console sessions (bearer tokens, stored only as keyed hashes). */
import type { Insertable, Selectable } from 'kysely';
import type { Db, SessionTable } from '../platform/db.js';

export type Session = Selectable<SessionTable>;

export function createSessionRepo(db: Db) {
  return {
    async insertSession(row: Insertable<SessionTable>): Promise<void> {
      await db.insertInto('sessions').values(row).execute();
    },
    /** Live session by token hash; expiry and revocation are decided by the caller's clock. */
    findSessionByTokenHash(tokenHash: string): Promise<Session | undefined> {
      return db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    findSessionById(realmId: string, id: string): Promise<Session | undefined> {
      return db.selectFrom('sessions').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
    },
    async touchSession(id: string, now: number): Promise<void> {
      await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
    },
    async revokeSession(realmId: string, id: string, now: number): Promise<boolean> {
      const res = await db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('realm_id', '=', realmId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /** Ends every session of an account, optionally sparing one (password change). */
    async revokeAccountSessions(realmId: string, accountId: string, now: number, exceptId?: string): Promise<number> {
      let q = db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('realm_id', '=', realmId)
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null);
      if (exceptId) q = q.where('id', '!=', exceptId);
      const res = await q.executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
    listAccountSessions(realmId: string, accountId: string, now: number): Promise<Session[]> {
      return db
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
    async deleteStaleSessions(now: number, graceMs: number): Promise<number> {
      const res = await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<', now - graceMs), eb('revoked_at', '<', now - graceMs)]))
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}

export type SessionRepo = ReturnType<typeof createSessionRepo>;
