/**
 * SQL for TOTP secrets and recovery codes: the one writer of `account_otp` and
 * `otp_recovery_codes`. Every statement is scoped to realm and account.
 */
import type { Selectable } from 'kysely';
import { newId } from '../platform/crypto.js';
import type { Db } from '../platform/db.js';
import { prepare } from '../platform/prepared.js';
import type { AccountOtpTable } from './otp.tables.js';

export type AccountOtp = Selectable<AccountOtpTable>;

export interface OtpOwner {
  realmId: string;
  accountId: string;
}

export function createOtpRepo(db: Db) {
  const otp = (trx: Db, o: OtpOwner) => trx.updateTable('account_otp').where('realm_id', '=', o.realmId).where('account_id', '=', o.accountId);

  // Every password sign-in asks whether the account has a one-time password: built once (platform/prepared.ts).
  const find = prepare<{ realm: string; account: string }>(db, (p) =>
    db.selectFrom('account_otp').selectAll().where('realm_id', '=', p('realm')).where('account_id', '=', p('account')),
  );

  return {
    async findOtp(o: OtpOwner, trx: Db = db): Promise<AccountOtp | undefined> {
      return (await find.run<AccountOtp>({ realm: o.realmId, account: o.accountId }, trx)).rows[0];
    },
    /** Keeps a setup's secret until it is confirmed; a new setup replaces an unconfirmed one. */
    async savePendingSecret(o: OtpOwner, sealed: string, now: number, trx: Db = db): Promise<void> {
      await trx
        .insertInto('account_otp')
        .values({
          account_id: o.accountId,
          realm_id: o.realmId,
          enabled: 0,
          secret: null,
          last_step: 0,
          pending_secret: sealed,
          pending_at: now,
          enabled_at: null,
          updated_at: now,
        })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ pending_secret: sealed, pending_at: now, updated_at: now }))
        .execute();
    },
    /** Conditional on the very setup that was checked, so two confirmations cannot both win. */
    async activatePendingSecret(o: OtpOwner, sealed: string, lastStep: number, now: number, trx: Db = db): Promise<boolean> {
      const res = await otp(trx, o)
        .set((eb) => ({
          secret: eb.ref('pending_secret'),
          pending_secret: null,
          pending_at: null,
          enabled: 1,
          last_step: lastStep,
          enabled_at: now,
          updated_at: now,
        }))
        .where('enabled', '=', 0)
        .where('pending_secret', '=', sealed)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /**
     * Accepts time steps atomically: moves last_step to `to` only if it is still
     * below `from`, so one code wins once however many requests carry it.
     */
    async advanceStep(o: OtpOwner, from: number, to: number, now: number, trx: Db = db): Promise<boolean> {
      const res = await otp(trx, o).set({ last_step: to, updated_at: now }).where('enabled', '=', 1).where('last_step', '<', from).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    async disableOtp(o: OtpOwner, now: number, trx: Db = db): Promise<void> {
      await otp(trx, o).set({ enabled: 0, secret: null, pending_secret: null, pending_at: null, enabled_at: null, updated_at: now }).execute();
    },
    async replaceRecoveryCodes(o: OtpOwner, hashes: string[], now: number, trx: Db = db): Promise<void> {
      await trx.deleteFrom('otp_recovery_codes').where('realm_id', '=', o.realmId).where('account_id', '=', o.accountId).execute();
      if (hashes.length === 0) return;
      await trx
        .insertInto('otp_recovery_codes')
        .values(hashes.map((code_hash) => ({ id: newId(), realm_id: o.realmId, account_id: o.accountId, code_hash, used_at: null, created_at: now })))
        .execute();
    },
    /** Single use: `UPDATE … WHERE used_at IS NULL` (SECURITY.md design rules). */
    async consumeRecoveryCode(o: OtpOwner, hash: string, now: number, trx: Db = db): Promise<boolean> {
      const res = await trx
        .updateTable('otp_recovery_codes')
        .set({ used_at: now })
        .where('realm_id', '=', o.realmId)
        .where('account_id', '=', o.accountId)
        .where('code_hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    async countUnusedRecoveryCodes(o: OtpOwner, trx: Db = db): Promise<number> {
      const row = await trx
        .selectFrom('otp_recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('realm_id', '=', o.realmId)
        .where('account_id', '=', o.accountId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Realm deletion (issue 11): the realm's OTP secrets and recovery codes. */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('otp_recovery_codes').where('realm_id', '=', realmId).execute();
      await trx.deleteFrom('account_otp').where('realm_id', '=', realmId).execute();
    },
  };
}

export type OtpRepo = ReturnType<typeof createOtpRepo>;
