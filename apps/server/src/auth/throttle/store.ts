/**
 * Where attempt counters live: the database, or Redis when REDIS_URL is set so that every
 * server process sees the same counts. Decisions use the times passed in (injected clock, A-47).
 *
 * Issue 8: an attempt is *reserved* before the password (or second factor) is checked, in one
 * atomic step that both refuses a blocked key and counts the attempt as a failure in advance.
 * Checking first and counting afterwards let hundreds of parallel guesses all be checked.
 */
import type { ThrottlePolicy } from './defaults.js';

export type ThrottleKind = 'account' | 'ip';

export interface ThrottleKey {
  realmId: string;
  kind: ThrottleKind;
  keyHash: string;
}

export type Reservation =
  /** counted as attempt `failures`; if it fails, the next one waits until `blockedUntil` */
  | { admitted: true; failures: number; blockedUntil: number }
  /** blocked until `blockedUntil`: not counted, nothing changed */
  | { admitted: false; blockedUntil: number };

export interface ThrottleStore {
  readonly kind: 'database' | 'redis';
  /**
   * Atomically: refuses while the key is blocked; otherwise counts one attempt (a counter
   * idle for `policy.windowMs` starts again at 1) and blocks the next one for
   * blockFor(policy, count), which stands until the attempt is given back.
   */
  reserve(key: ThrottleKey, now: number, policy: ThrottlePolicy): Promise<Reservation>;
  /** Gives one reserved attempt back (it was no guess, or it succeeded): count − 1, block recomputed. */
  release(key: ThrottleKey, policy: ThrottlePolicy): Promise<void>;
  clear(key: ThrottleKey): Promise<void>;
}
