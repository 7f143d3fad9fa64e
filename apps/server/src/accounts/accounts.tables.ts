/** The accounts table (person and service accounts); accounts.repo.ts is its only writer. */

export interface AccountTable {
  id: string;
  realm_id: string;
  kind: 'person' | 'service';
  owner_id: string | null;
  username: string;
  /** the user name folded by normaliseUsername (service accounts: owner/subname), for unique lookup */
  username_norm: string;
  email: string | null;
  email_norm: string | null;
  /** E.164 */
  phone: string | null;
  password_hash: string | null;
  avatar: string;
  disabled: number;
  activated: number;
  force_password: number;
  regist_area: string;
  last_login_at: number | null;
  last_login_area: string;
  created_at: number;
  updated_at: number;
}

declare module '../platform/db.js' {
  interface Database {
    accounts: AccountTable;
  }
}

/**
 * How many accounts a realm has per kind, disabled and activated (migration 0037), kept by
 * triggers on `accounts`; on PostgreSQL a combination may have several rows (differences), and
 * its tally is their sum. Read and folded by accounts.tallies.repo.ts only.
 */
export interface AccountTallyTable {
  realm_id: string;
  kind: 'person' | 'service';
  disabled: number;
  activated: number;
  /** PostgreSQL bigint: read as text */
  n: number | string;
}

declare module '../platform/db.js' {
  interface Database {
    account_tallies: AccountTallyTable;
  }
}
