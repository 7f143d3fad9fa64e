/** The data centre's event queue (issue 14, migration 0028); bigdata.repo.ts is its only writer. */
import type { Generated } from 'kysely';

/** pending: waiting for its time; sending: claimed by one process until `lease_until`. */
export type BigdataEventState = 'pending' | 'sending';

export interface BigdataEventTable {
  seq: Generated<number>;
  event_id: string;
  realm_id: string;
  account_id: string;
  kind: string;
  /** the JSON body sent to the data centre: never a secret (bigdata.events.ts decides it) */
  payload: string;
  state: BigdataEventState;
  attempts: number;
  next_attempt_at: number;
  lease_until: number;
  lease_holder: string;
  /** why the last attempt failed ("HTTP 503", "timeout"): never an answer's body */
  last_error: string | null;
  last_error_at: number | null;
  created_at: number;
}

declare module '../../platform/db.js' {
  interface Database {
    bigdata_events: BigdataEventTable;
  }
}
