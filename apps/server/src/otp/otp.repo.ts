/** SQL for TOTP secrets and recovery codes. Every statement is scoped to realm and account. */
import type { Selectable } from 'kysely';
import type { AccountOtpTable, Db } from '../platform/db.js';
import { newId } from '../platform/crypto.js';

export type AccountOtp = Selectable<AccountOtpTable>;

export interface OtpOwner {
  realmId: string;
  accountId: string;
}

function queries(db: Db) {
  const otp = (o: OtpOwner) => db.updateTable('account_otp').where('realm_id', '=', o.realmId).where('account_id', '=', o.accountId);

  return {
    findOtp(o: OtpOwner): Promise<AccountOtp | undefined> {
      return db.selectFrom('account_otp').selectAll().where('realm_id', '=', o.realmId).where('account_id', '=', o.accountId).executeTakeFirst();
    },
    /** Keeps a setup's secret until it is confirmed; a new setup replaces an unconfirmed one. */
    async savePendingSecret(o: OtpOwner, sealed: string, now: number): Promise<void> {
      await db
        .insertInto('account_otp')
        .values({ account_id: o.accountId, realm_id: o.realmId, enabled: 0, secret: null, last_step: 0, pending_secret: sealed, pending_at: now, enabled_at: null, updated_at: now })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ pending_secret: sealed, pending_at: now, updated_at: now }))
        .execute();
    },
    /** Conditional on the very setup that was checked, so two confirmations cannot both win. */
    async activatePendingSecret(o: OtpOwner, sealed: string, lastStep: number, now: number): Promise<boolean> {
      const res = await otp(o)
        .set((eb) => ({ secret: eb.ref('pending_secret'), pending_secret: null, pending_at: null, enabled: 1, last_step: lastStep, enabled_at: now, updated_at: now }))
        .where('enabled', '=', 0)
        .where('pending_secret', '=', sealed)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /**
     * Accepts time steps atomically: moves last_step to `to` only if it is still
     * below `from`, so one code wins once however many requests carry it.
     */
    async advanceStep(o: OtpOwner, from: number, to: number, now: number): Promise<boolean> {
      const res = await otp(o).set({ last_step: to, updated_at: now }).where('enabled', '=', 1).where('last_step', '<', from).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    async disableOtp(o: OtpOwner, now: number): Promise<void> {
      await otp(o).set({ enabled: 0, secret: null, pending_secret: null, pending_at: null, enabled_at: null, updated_at: now }).execute();
    },
    async replaceRecoveryCodes(o: OtpOwner, hashes: string[], now: number): Promise<void> {
      await db.deleteFrom('otp_recovery_codes').where('realm_id', '=', o.realmId).where('account_id', '=', o.accountId).execute();
      if (hashes.length === 0) return;
      await db
        .insertInto('otp_recovery_codes')
        .values(hashes.map((code_hash) => ({ id: newId(), realm_id: o.realmId, account_id: o.accountId, code_hash, used_at: null, created_at: now })))
        .execute();
    },
    /** Single use: `UPDATE … WHERE used_at IS NULL` (SECURITY.md design rules). */
    async consumeRecoveryCode(o: OtpOwner, hash: string, now: number): Promise<boolean> {
      const res = await db
        .updateTable('otp_recovery_codes')
        .set({ used_at: now })
        .where('realm_id', '=', o.realmId)
        .where('account_id', '=', o.accountId)
        .where('code_hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    async countUnusedRecoveryCodes(o: OtpOwner): Promise<number> {
      const row = await db
        .selectFrom('otp_recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('realm_id', '=', o.realmId)
        .where('account_id', '=', o.accountId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type OtpRepoQueries = ReturnType<typeof queries>;

export function createOtpRepo(db: Db) {
  return {
    ...queries(db),
    /** Runs `fn` with the same queries bound to one transaction: all of it happens, or none (DESIGN.md §5). */
    inTransaction<T>(fn: (trx: OtpRepoQueries) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => fn(queries(trx)));
    },
  };
}

export type OtpRepo = ReturnType<typeof createOtpRepo>;
