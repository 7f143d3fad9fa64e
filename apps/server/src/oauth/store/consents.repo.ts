/**
 * SQL for OAuth records (oauth_consents, SPEC §3 "OAuth record"): the table's one writer. One row
 * per (account, client): the scopes the user granted and when (AS-28).
 */
import type { Selectable } from 'kysely';
import { newId } from '../../platform/crypto.js';
import type { Db } from '../../platform/db.js';
import type { OAuthConsentTable } from '../oauth.tables.js';

export type OAuthConsent = Selectable<OAuthConsentTable>;

/** A record as lists show it: with its client's public id and name and the account's user name. */
export interface OAuthConsentListRow extends OAuthConsent {
  client_id: string;
  client_name: string;
  username: string;
}

export interface ConsentPage {
  /** rows to read (ask one more than shown to know whether more follow) */
  limit: number;
  /** keyset: rows strictly older than this (updated_at desc, id desc) */
  after?: { updatedAt: number; id: string } | undefined;
  /** or plain offset paging when the caller needs page numbers */
  offset?: number | undefined;
  accountId?: string | undefined;
  clientRef?: string | undefined;
}

export function createOAuthConsentRepo(db: Db) {
  const listQuery = (trx: Db) =>
    trx
      .selectFrom('oauth_consents as c')
      .innerJoin('oauth_clients as cl', 'cl.id', 'c.client_ref')
      .innerJoin('accounts as a', 'a.id', 'c.account_id')
      .selectAll('c')
      .select(['cl.client_id as client_id', 'cl.name as client_name', 'a.username as username']);

  const find = (accountId: string, clientRef: string, trx: Db = db): Promise<OAuthConsent | undefined> =>
    trx.selectFrom('oauth_consents').selectAll().where('account_id', '=', accountId).where('client_ref', '=', clientRef).executeTakeFirst();

  return {
    find,
    /**
     * Grants `scope` (space-separated) to the client; an existing record keeps its id and
     * creation time and takes the new scope set (the union is the caller's decision).
     * One statement (insert … on conflict), so two parallel approvals never make two records.
     */
    async upsert(r: { realmId: string; accountId: string; clientRef: string; scope: string; now: number }, trx: Db = db): Promise<OAuthConsent> {
      await trx
        .insertInto('oauth_consents')
        .values({
          id: newId(),
          realm_id: r.realmId,
          account_id: r.accountId,
          client_ref: r.clientRef,
          scope: r.scope,
          created_at: r.now,
          updated_at: r.now,
        })
        .onConflict((oc) => oc.columns(['account_id', 'client_ref']).doUpdateSet({ scope: r.scope, updated_at: r.now }))
        .execute();
      return (await find(r.accountId, r.clientRef, trx))!;
    },
    /** The user's own records (account/oauthList), newest first. */
    listByAccount(accountId: string, trx: Db = db): Promise<OAuthConsentListRow[]> {
      return listQuery(trx).where('c.account_id', '=', accountId).orderBy('c.updated_at', 'desc').orderBy('c.id', 'desc').execute();
    },
    /** A realm's records for its administrators, newest first. */
    listByRealm(realmId: string, page: ConsentPage, trx: Db = db): Promise<OAuthConsentListRow[]> {
      let q = listQuery(trx).where('c.realm_id', '=', realmId);
      if (page.accountId) q = q.where('c.account_id', '=', page.accountId);
      if (page.clientRef) q = q.where('c.client_ref', '=', page.clientRef);
      const after = page.after;
      if (after) {
        // the plain bound is what PostgreSQL starts the index scan from (an OR alone is a filter)
        q = q
          .where('c.updated_at', '<=', after.updatedAt)
          .where((eb) => eb.or([eb('c.updated_at', '<', after.updatedAt), eb.and([eb('c.updated_at', '=', after.updatedAt), eb('c.id', '<', after.id)])]));
      }
      q = q.orderBy('c.updated_at', 'desc').orderBy('c.id', 'desc').limit(page.limit);
      if (page.offset) q = q.offset(page.offset);
      return q.execute();
    },
    async countByRealm(realmId: string, trx: Db = db): Promise<number> {
      const row = await trx
        .selectFrom('oauth_consents')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('realm_id', '=', realmId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** True when a record was removed. Revoking its tokens is the caller's (services.oauthTokens.revokeFor). */
    async delete(accountId: string, clientRef: string, trx: Db = db): Promise<boolean> {
      const res = await trx.deleteFrom('oauth_consents').where('account_id', '=', accountId).where('client_ref', '=', clientRef).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },
    /** Realm deletion. */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('oauth_consents').where('realm_id', '=', realmId).execute();
    },
  };
}

export type OAuthConsentRepo = ReturnType<typeof createOAuthConsentRepo>;
