/** Ali Living links (issue 14, migration 0030); aliliving.repo.ts is the table's only writer. */
export interface AliLivingLinkTable {
  realm_id: string;
  account_id: string;
  /** the account's identity id on the Ali Living platform; null until linked */
  identity_id: string | null;
  linked_at: number | null;
  /** the last failure, short and without any secret; null once linked */
  last_error: string | null;
  attempts: number;
  last_try_at: number;
  /** when the retry job tries again; null once linked */
  next_try_at: number | null;
}

declare module '../../platform/db.js' {
  interface Database {
    aliliving_links: AliLivingLinkTable;
  }
}
