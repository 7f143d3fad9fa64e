/** Console sessions; sessions.repo.ts is the table's only writer. */

export interface SessionTable {
  id: string;
  realm_id: string;
  account_id: string;
  /** keyed hash of the bearer token, never the token */
  token_hash: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  revoked_at: number | null;
  /** when the holder authenticated, if before created_at (an OAuth SSO session issued from a console session; migration 0023); null: created_at */
  auth_time: number | null;
  ip: string;
  user_agent: string;
}

declare module '../platform/db.js' {
  interface Database {
    sessions: SessionTable;
  }
}
