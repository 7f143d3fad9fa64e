/** SQL for it_shadow_links (migration 0027): which local account stands for which backend user. */
import type { Selectable } from 'kysely';
import type { Account } from '../../accounts/accounts.repo.js';
import { prepare } from '../../platform/prepared.js';
import type { Db } from '../../platform/db.js';

export interface ItShadowLinkTable {
  realm_id: string;
  backend_user_id: string;
  account_id: string;
  region: string;
  created_at: number;
  updated_at: number;
}

declare module '../../platform/db.js' {
  interface Database {
    it_shadow_links: ItShadowLinkTable;
  }
}

export type ItShadowLink = Selectable<ItShadowLinkTable>;

export function createShadowLinkRepo(db: Db) {
  // Every federated sign-in reads the link and its account: one statement, built once (audit/prepared.ts).
  const linked = prepare<{ realm: string; user: string }>(db, (p) =>
    db
      .selectFrom('it_shadow_links as l')
      .leftJoin('accounts as a', (j) => j.onRef('a.realm_id', '=', 'l.realm_id').onRef('a.id', '=', 'l.account_id'))
      .selectAll('a')
      .select(['l.region as link_region'])
      .where('l.realm_id', '=', p('realm'))
      .where('l.backend_user_id', '=', p('user')),
  );
  return {
    /** The link of a backend user and the account it names (undefined when that account is gone), in one read. */
    async findLinkedAccount(realmId: string, backendUserId: string, trx: Db = db): Promise<{ region: string; account: Account | undefined } | undefined> {
      const row = (await linked.run<Account & { link_region: string }>({ realm: realmId, user: backendUserId }, trx)).rows[0];
      if (!row) return undefined;
      const { link_region: region, ...account } = row;
      // a left join: no account row reads as all its columns null
      return { region, account: account.id === null ? undefined : account };
    },
    findLink(realmId: string, backendUserId: string, trx: Db = db): Promise<ItShadowLink | undefined> {
      return trx.selectFrom('it_shadow_links').selectAll().where('realm_id', '=', realmId).where('backend_user_id', '=', backendUserId).executeTakeFirst();
    },
    findLinksOfAccounts(realmId: string, accountIds: readonly string[], trx: Db = db): Promise<ItShadowLink[]> {
      if (accountIds.length === 0) return Promise.resolve([]);
      return trx.selectFrom('it_shadow_links').selectAll().where('realm_id', '=', realmId).where('account_id', 'in', accountIds).execute();
    },
    async insertLink(link: ItShadowLink, trx: Db = db): Promise<void> {
      await trx.insertInto('it_shadow_links').values(link).execute();
    },
    async setRegion(realmId: string, backendUserId: string, region: string, now: number, trx: Db = db): Promise<void> {
      await trx
        .updateTable('it_shadow_links')
        .set({ region, updated_at: now })
        .where('realm_id', '=', realmId)
        .where('backend_user_id', '=', backendUserId)
        .execute();
    },
    async deleteLink(realmId: string, backendUserId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('it_shadow_links').where('realm_id', '=', realmId).where('backend_user_id', '=', backendUserId).execute();
    },
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<number> {
      const res = await trx.deleteFrom('it_shadow_links').where('realm_id', '=', realmId).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}

export type ShadowLinkRepo = ReturnType<typeof createShadowLinkRepo>;
