/** A service account's description and grants (issue 11); service-accounts.repo.ts is the table's only writer. */

export interface ServiceAccountTable {
  /** the service account (accounts.id, kind 'service') */
  account_id: string;
  realm_id: string;
  owner_id: string;
  description: string;
  /** JSON: [{permissionId, actions: [...]}], the "resources" of SPEC §2 */
  grants: string;
  updated_at: number;
}

declare module '../platform/db.js' {
  interface Database {
    service_accounts: ServiceAccountTable;
  }
}
