/**
 * SQL the public flows need beyond accounts.repo.ts: accounts by email or phone, and the
 * few updates registration, activation and recovery make. Every call is realm-scoped.
 */
import { normaliseEmail, type Account } from '../../accounts/accounts.repo.js';
import type { Db } from '../../platform/db.js';

export { normaliseEmail };

export function createFlowRepo(db: Db) {
  return {
    findAccountByEmail(realmId: string, email: string, trx: Db = db): Promise<Account | undefined> {
      return trx.selectFrom('accounts').selectAll().where('realm_id', '=', realmId).where('email_norm', '=', normaliseEmail(email)).executeTakeFirst();
    },
    /** `phone` in E.164, as codes/phone.ts produces it */
    findAccountByPhone(realmId: string, phone: string, trx: Db = db): Promise<Account | undefined> {
      return trx.selectFrom('accounts').selectAll().where('realm_id', '=', realmId).where('phone', '=', phone).executeTakeFirst();
    },
    async activateAccount(realmId: string, id: string, now: number, trx: Db = db): Promise<boolean> {
      const res = await trx.updateTable('accounts').set({ activated: 1, updated_at: now }).where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /** A recovered password also clears a pending forced change; proving the mailbox activates. */
    async setRecoveredPassword(realmId: string, id: string, passwordHash: string, now: number, activate: boolean, trx: Db = db): Promise<boolean> {
      const res = await trx
        .updateTable('accounts')
        .set({ password_hash: passwordHash, force_password: 0, updated_at: now, ...(activate ? { activated: 1 } : {}) })
        .where('realm_id', '=', realmId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
  };
}

export type FlowRepo = ReturnType<typeof createFlowRepo>;
