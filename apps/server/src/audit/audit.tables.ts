/** The audit trail (issue 11); audit.repo.ts is its only writer. */

export interface AuditEventTable {
  id: string;
  /** epoch milliseconds */
  at: number;
  realm_id: string;
  /** null: an anonymous caller (a failed sign-in for an unknown name) or the system */
  actor_id: string | null;
  actor_name: string;
  /** dotted: realm.create, account.disable, signin.password, … */
  action: string;
  target_type: string;
  target_id: string | null;
  target_name: string;
  ip: string;
  user_agent: string;
  result: 'ok' | 'fail';
  /** JSON: {changes?: string[] (field names only), …small non-secret facts} */
  detail: string;
}

declare module '../platform/db.js' {
  interface Database {
    audit_events: AuditEventTable;
  }
}
