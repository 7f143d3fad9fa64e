/** Messages kept by the `outbox` provider (issue 3); outbox.repo.ts is the table's only writer. */

/** Subject and body are encrypted at rest. */
export interface OutboxTable {
  id: string;
  realm_id: string;
  channel: 'mail' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  created_at: number;
}

declare module '../platform/db.js' {
  interface Database {
    outbox: OutboxTable;
  }
}
