/**
 * SQL of the user's own account that the shared repos do not have: preferences, uploaded
 * avatars, a rename that carries the account's service accounts along (their sign-in name is
 * `owner/subname`, DESIGN.md §4), and the password change with its session revocation in
 * one transaction. Every statement is realm-scoped.
 */
import { sql } from 'kysely';
import type { Db } from '../platform/db.js';
import { normaliseUsername } from '../accounts/accounts.repo.js';

export interface StoredAvatar {
  id: string;
  mime: string;
  data: string;
}

function queries(db: Db) {
  return {
    /** New user name for a person account, and `new/sub` for each of its service accounts. */
    async renameAccount(realmId: string, id: string, oldNorm: string, username: string, now: number): Promise<void> {
      const norm = normaliseUsername(username);
      await db.updateTable('accounts').set({ username, username_norm: norm, updated_at: now }).where('realm_id', '=', realmId).where('id', '=', id).execute();
      const prefix = `${oldNorm}/`;
      await db
        .updateTable('accounts')
        .set({ username_norm: sql<string>`cast(${norm + '/'} as varchar(120)) || substr(username_norm, cast(${prefix.length + 1} as integer))`, updated_at: now })
        .where('realm_id', '=', realmId)
        .where('owner_id', '=', id)
        .where('kind', '=', 'service')
        .execute();
    },
    async setAvatarUrl(realmId: string, id: string, avatar: string, now: number): Promise<void> {
      await db.updateTable('accounts').set({ avatar, updated_at: now }).where('realm_id', '=', realmId).where('id', '=', id).execute();
    },
    /** A new password also ends a forced change (SPEC §3 force_password). */
    async setPassword(realmId: string, id: string, passwordHash: string, now: number): Promise<void> {
      await db.updateTable('accounts').set({ password_hash: passwordHash, force_password: 0, updated_at: now }).where('realm_id', '=', realmId).where('id', '=', id).execute();
    },
    /** Part of the password change's transaction: every other session of the account ends. */
    async revokeOtherSessions(realmId: string, accountId: string, keepSessionId: string, now: number): Promise<number> {
      const res = await db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('realm_id', '=', realmId)
        .where('account_id', '=', accountId)
        .where('id', '!=', keepSessionId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
    /** Which account of the realm has this address (lower-case email or E.164 phone), if any. */
    async findAccountIdByAddress(realmId: string, channel: 'email' | 'sms', norm: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('accounts')
        .select('id')
        .where('realm_id', '=', realmId)
        .where(channel === 'email' ? 'email_norm' : 'phone', '=', norm)
        .executeTakeFirst();
      return row?.id;
    },
    /** Binds (or with null unbinds) the email or phone; the unique indexes refuse a taken one. */
    async setAddress(realmId: string, id: string, channel: 'email' | 'sms', address: { value: string; norm: string } | null, now: number): Promise<void> {
      const patch = channel === 'email' ? { email: address?.value ?? null, email_norm: address?.norm ?? null } : { phone: address?.norm ?? null };
      await db.updateTable('accounts').set({ ...patch, updated_at: now }).where('realm_id', '=', realmId).where('id', '=', id).execute();
    },
    async findAddresses(realmId: string, id: string): Promise<{ email: string | null; phone: string | null }> {
      const row = await db.selectFrom('accounts').select(['email', 'phone']).where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
      return { email: row?.email ?? null, phone: row?.phone ?? null };
    },
    async findSettings(realmId: string, accountId: string): Promise<string | undefined> {
      const row = await db.selectFrom('account_settings').select('data').where('realm_id', '=', realmId).where('account_id', '=', accountId).executeTakeFirst();
      return row?.data;
    },
    async saveSettings(realmId: string, accountId: string, data: string, now: number): Promise<void> {
      await db
        .insertInto('account_settings')
        .values({ account_id: accountId, realm_id: realmId, data, updated_at: now })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ data, updated_at: now }))
        .execute();
    },
    /** One uploaded avatar per account: a new one replaces the old (and its URL). */
    async replaceAvatar(realmId: string, accountId: string, avatar: StoredAvatar, now: number): Promise<void> {
      await db.deleteFrom('account_avatars').where('realm_id', '=', realmId).where('account_id', '=', accountId).execute();
      await db.insertInto('account_avatars').values({ ...avatar, realm_id: realmId, account_id: accountId, created_at: now }).execute();
    },
    async deleteAvatar(realmId: string, accountId: string): Promise<void> {
      await db.deleteFrom('account_avatars').where('realm_id', '=', realmId).where('account_id', '=', accountId).execute();
    },
    findAvatar(realmId: string, id: string): Promise<StoredAvatar | undefined> {
      return db.selectFrom('account_avatars').select(['id', 'mime', 'data']).where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
    },
  };
}

export type AccountSelfRepoQueries = ReturnType<typeof queries>;

export function createAccountSelfRepo(db: Db) {
  return {
    ...queries(db),
    /** Runs `fn` with the same queries bound to one transaction: all of it happens, or none (DESIGN.md §5). */
    inTransaction<T>(fn: (trx: AccountSelfRepoQueries) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => fn(queries(trx)));
    },
  };
}

export type AccountSelfRepo = ReturnType<typeof createAccountSelfRepo>;
