/**
 * SQL for device authorizations (oauth_device_codes, RFC 8628): the table's one writer. Device
 * and user codes are stored only as keyed hashes (AS-12). Every change of state is one
 * conditional UPDATE — pending → approved | denied, approved → used — so of any number of
 * parallel requests on any number of instances exactly one makes it; the database decides.
 */
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../platform/db.js';
import type { OAuthDeviceCodeTable } from '../oauth.tables.js';

export type DeviceCode = Selectable<OAuthDeviceCodeTable>;
export type NewDeviceCode = Insertable<OAuthDeviceCodeTable>;
export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'used';

export function createDeviceCodeRepo(db: Db) {
  return {
    async insert(row: NewDeviceCode, trx: Db = db): Promise<void> {
      await trx.insertInto('oauth_device_codes').values(row).execute();
    },

    findByDeviceCode(deviceCodeHash: string, trx: Db = db): Promise<DeviceCode | undefined> {
      return trx.selectFrom('oauth_device_codes').selectAll().where('device_code_hash', '=', deviceCodeHash).executeTakeFirst();
    },

    findByUserCode(userCodeHash: string, trx: Db = db): Promise<DeviceCode | undefined> {
      return trx.selectFrom('oauth_device_codes').selectAll().where('user_code_hash', '=', userCodeHash).executeTakeFirst();
    },

    /**
     * The user's decision (RFC 8628 §3.3): only a pending, unexpired code changes, once. The row
     * when THIS call decided it; undefined when it was decided, used or expired meanwhile.
     */
    decide(
      userCodeHash: string,
      d: { status: 'approved' | 'denied'; accountId: string; authTime: number | null },
      now: number,
      trx: Db = db,
    ): Promise<DeviceCode | undefined> {
      return trx
        .updateTable('oauth_device_codes')
        .set({ status: d.status, account_id: d.accountId, auth_time: d.authTime })
        .where('user_code_hash', '=', userCodeHash)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * A poll that kept the interval (RFC 8628 §3.5): records it and answers the row as it is now;
     * undefined when the previous poll was less than `interval_sec` ago (then: slowDown).
     */
    admitPoll(deviceCodeHash: string, now: number, trx: Db = db): Promise<DeviceCode | undefined> {
      return trx
        .updateTable('oauth_device_codes')
        .set({ last_polled_at: now })
        .where('device_code_hash', '=', deviceCodeHash)
        .where((eb) => eb.or([eb('last_polled_at', 'is', null), eb(sql<number>`last_polled_at + interval_sec * 1000`, '<=', now)]))
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * slow_down: "the interval MUST be increased by 5 seconds for this and all subsequent
     * requests" (RFC 8628 §3.5). The too-early poll counts as the latest one. Answers the new interval.
     */
    async slowDown(deviceCodeHash: string, stepSec: number, now: number, trx: Db = db): Promise<number | undefined> {
      const row = await trx
        .updateTable('oauth_device_codes')
        .set((eb) => ({ interval_sec: eb('interval_sec', '+', stepSec), last_polled_at: now }))
        .where('device_code_hash', '=', deviceCodeHash)
        .returning('interval_sec')
        .executeTakeFirst();
      return row?.interval_sec;
    },

    /** Redemption: approved → used, once. The row only when THIS call used it (one token answer per approval). */
    redeem(deviceCodeHash: string, now: number, trx: Db = db): Promise<DeviceCode | undefined> {
      return trx
        .updateTable('oauth_device_codes')
        .set({ status: 'used' })
        .where('device_code_hash', '=', deviceCodeHash)
        .where('status', '=', 'approved')
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
    },

    /** Sweep: codes that expired before `before` (kept past expiry a while so a late poll reads expired_token). */
    async deleteExpired(before: number, trx: Db = db): Promise<number> {
      const res = await trx.deleteFrom('oauth_device_codes').where('expires_at', '<', before).executeTakeFirst();
      return Number(res.numDeletedRows);
    },

    /** Realm deletion. */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('oauth_device_codes').where('realm_id', '=', realmId).execute();
    },
  };
}

export type DeviceCodeRepo = ReturnType<typeof createDeviceCodeRepo>;
