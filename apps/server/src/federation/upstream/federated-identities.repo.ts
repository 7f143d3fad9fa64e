/**
 * SQL for upstream OpenID identities (issue 14, migration 0029): the one writer of
 * federated_identities. An identity is (realm, issuer, subject); it names one account.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db.js';

export interface FederatedIdentityTable {
  id: string;
  realm_id: string;
  /** the upstream's issuer identifier, as its ID token says (`iss`) */
  issuer: string;
  /** the upstream's subject (`sub`), unique within the issuer */
  subject: string;
  account_id: string;
  /** the upstream's e-mail claim at link time, for administrators to recognise the link */
  email: string | null;
  linked_at: number;
}

declare module '../../platform/db.js' {
  interface Database {
    federated_identities: FederatedIdentityTable;
  }
}

export type FederatedIdentity = Selectable<FederatedIdentityTable>;

export function createFederatedIdentityRepo(db: Db) {
  return {
    findIdentity(realmId: string, issuer: string, subject: string, trx: Db = db): Promise<FederatedIdentity | undefined> {
      return trx
        .selectFrom('federated_identities')
        .selectAll()
        .where('realm_id', '=', realmId)
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .executeTakeFirst();
    },
    listForAccount(realmId: string, accountId: string, trx: Db = db): Promise<FederatedIdentity[]> {
      return trx
        .selectFrom('federated_identities')
        .selectAll()
        .where('realm_id', '=', realmId)
        .where('account_id', '=', accountId)
        .orderBy('linked_at')
        .execute();
    },
    async insertIdentity(row: FederatedIdentity, trx: Db = db): Promise<void> {
      await trx.insertInto('federated_identities').values(row).execute();
    },
    /** true when a link of this account was removed */
    async deleteIdentity(realmId: string, accountId: string, id: string, trx: Db = db): Promise<boolean> {
      const r = await trx
        .deleteFrom('federated_identities')
        .where('realm_id', '=', realmId)
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export type FederatedIdentityRepo = ReturnType<typeof createFederatedIdentityRepo>;
