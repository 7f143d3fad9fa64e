/** SQL for 24-character mail-link codes (activation, reset): the table's one writer. Realm-scoped; codes only hashed. */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../platform/db.js';
import type { MailLinkCodeTable } from './codes.tables.js';

export type MailLinkCode = Selectable<MailLinkCodeTable>;
export type MailLinkKind = MailLinkCodeTable['kind'];

export function createMailLinkRepo(db: Db) {
  return {
    async insertMailLinkCode(row: Insertable<MailLinkCodeTable>, trx: Db = db): Promise<void> {
      await trx.insertInto('mail_link_codes').values(row).execute();
    },
    /** A new reset link makes older unused ones of the same account worthless. */
    async deleteUnusedMailLinkCodes(realmId: string, accountId: string, kind: MailLinkKind, trx: Db = db): Promise<void> {
      await trx
        .deleteFrom('mail_link_codes')
        .where('realm_id', '=', realmId)
        .where('account_id', '=', accountId)
        .where('kind', '=', kind)
        .where('used_at', 'is', null)
        .execute();
    },
    /** Single use: one conditional update consumes a live code and names its account. */
    async consumeMailLinkCode(realmId: string, kind: MailLinkKind, codeHash: string, now: number, trx: Db = db): Promise<string | undefined> {
      const row = await trx
        .updateTable('mail_link_codes')
        .set({ used_at: now })
        .where('realm_id', '=', realmId)
        .where('kind', '=', kind)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('account_id')
        .executeTakeFirst();
      return row?.account_id;
    },
    findMailLinkCode(realmId: string, kind: MailLinkKind, codeHash: string, trx: Db = db): Promise<MailLinkCode | undefined> {
      return trx
        .selectFrom('mail_link_codes')
        .selectAll()
        .where('realm_id', '=', realmId)
        .where('kind', '=', kind)
        .where('code_hash', '=', codeHash)
        .executeTakeFirst();
    },
    /** Sweep: codes expired for longer than `graceMs` go. */
    async deleteExpiredMailLinkCodes(now: number, graceMs: number, trx: Db = db): Promise<number> {
      const res = await trx
        .deleteFrom('mail_link_codes')
        .where('expires_at', '<', now - graceMs)
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
    /** Realm deletion (issue 11): the realm's activation and reset links. */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('mail_link_codes').where('realm_id', '=', realmId).execute();
    },
  };
}

export type MailLinkRepo = ReturnType<typeof createMailLinkRepo>;
