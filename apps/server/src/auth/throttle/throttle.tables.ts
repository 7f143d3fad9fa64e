/** Failed sign-in counters when no Redis is configured; throttle.repo.ts is the only writer. */

/** Per realm, by account name or IP (issue 3, A-31). */
export interface LoginThrottleTable {
  realm_id: string;
  kind: 'account' | 'ip';
  /** keyed hash of the normalised user name or the IP address */
  key_hash: string;
  failures: number;
  last_failure_at: number;
  /** 0 when not blocked */
  blocked_until: number;
}

declare module '../../platform/db.js' {
  interface Database {
    login_throttle: LoginThrottleTable;
  }
}
