/**
 * SQL of the user's own preferences and uploaded avatar: the one writer of `account_settings`
 * and `account_avatars` (me.tables.ts). The account row itself is accounts.repo.ts's, the sessions
 * sessions.repo.ts's. Every statement is realm-scoped.
 */
import { CompiledQuery } from 'kysely';
import type { Db } from '../platform/db.js';
// The tables' declaration (merged into platform/db.ts's Database) comes with the repo that writes them.
import './me.tables.js';
import '../otp/otp.tables.js';

export interface StoredAvatar {
  id: string;
  mime: string;
  data: string;
}

export function createMeRepo(db: Db) {
  return {
    async findSettings(realmId: string, accountId: string, trx: Db = db): Promise<string | undefined> {
      const row = await trx
        .selectFrom('account_settings')
        .select('data')
        .where('realm_id', '=', realmId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row?.data;
    },
    async saveSettings(realmId: string, accountId: string, data: string, now: number, trx: Db = db): Promise<void> {
      await trx
        .insertInto('account_settings')
        .values({ account_id: accountId, realm_id: realmId, data, updated_at: now })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ data, updated_at: now }))
        .execute();
    },
    /** One uploaded avatar per account: a new one replaces the old (and its URL). */
    async replaceAvatar(realmId: string, accountId: string, avatar: StoredAvatar, now: number, trx: Db = db): Promise<void> {
      await trx.deleteFrom('account_avatars').where('realm_id', '=', realmId).where('account_id', '=', accountId).execute();
      await trx
        .insertInto('account_avatars')
        .values({ ...avatar, realm_id: realmId, account_id: accountId, created_at: now })
        .execute();
    },
    async deleteAvatar(realmId: string, accountId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('account_avatars').where('realm_id', '=', realmId).where('account_id', '=', accountId).execute();
    },
    findAvatar(realmId: string, id: string, trx: Db = db): Promise<StoredAvatar | undefined> {
      return trx.selectFrom('account_avatars').select(['id', 'mime', 'data']).where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
    },
    /** Realm deletion (issue 11): the realm's account settings and avatars. */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('account_avatars').where('realm_id', '=', realmId).execute();
      await trx.deleteFrom('account_settings').where('realm_id', '=', realmId).execute();
    },
  };
}

export type MeRepo = ReturnType<typeof createMeRepo>;
