/** SQL for accounts. Every read and write is scoped to a realm (SECURITY.md design rules). */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { AccountTable, Db } from '../platform/db.js';

export type Account = Selectable<AccountTable>;

/**
 * The one form user names and email addresses are compared in (issue 8): NFKC, so fullwidth
 * and compatibility look-alikes ('ｋ', the Kelvin sign 'K') fold onto their plain letters,
 * then lower case (NFKC again: lower-casing can leave a non-NFKC sequence), then trimmed.
 * Uniqueness checks and lookups both go through these, so a look-alike finds the account it
 * imitates instead of registering a second one.
 */
function fold(value: string): string {
  return value.normalize('NFKC').toLowerCase().normalize('NFKC').trim();
}

export const normaliseUsername = (username: string): string => fold(username);
export const normaliseEmail = (email: string): string => fold(email);

export function createAccountRepo(db: Db) {
  return {
    findAccountById(realmId: string, id: string): Promise<Account | undefined> {
      return db.selectFrom('accounts').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
    },
    findAccountByUsername(realmId: string, username: string): Promise<Account | undefined> {
      return db
        .selectFrom('accounts')
        .selectAll()
        .where('realm_id', '=', realmId)
        .where('username_norm', '=', normaliseUsername(username))
        .executeTakeFirst();
    },
    async insertAccount(row: Insertable<AccountTable>, trx: Db = db): Promise<void> {
      await trx.insertInto('accounts').values(row).execute();
    },
    async updateAccount(realmId: string, id: string, patch: Updateable<AccountTable>, trx: Db = db): Promise<boolean> {
      const res = await trx.updateTable('accounts').set(patch).where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    async countAccounts(realmId: string): Promise<number> {
      const row = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).where('realm_id', '=', realmId).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type AccountRepo = ReturnType<typeof createAccountRepo>;
