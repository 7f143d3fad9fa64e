/**
 * Where attempt counters live: the database, or Redis when REDIS_URL is set so that every
 * server process sees the same counts. Decisions use the times passed in (injected clock, A-47).
 *
 * Issue 8: an attempt is *reserved* before the password (or second factor) is checked, in one
 * atomic step that both refuses a blocked key and counts the attempt as a failure in advance.
 * Checking first and counting afterwards let hundreds of parallel guesses all be checked.
 */
import type { Db } from '../../platform/db.js';
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

/** A counter and the policy it is kept under. */
export interface PolicedKey {
  key: ThrottleKey;
  policy: ThrottlePolicy;
}

export interface ThrottleStore {
  readonly kind: 'database' | 'redis';
  /**
   * For each key, atomically: refuses while it is blocked; otherwise counts one attempt (a
   * counter idle for `policy.windowMs` starts again at 1) and blocks the next one for
   * blockFor(policy, count), which stands until the attempt is given back. Answers in key
   * order; the keys of one call belong to one realm and are told apart by kind.
   */
  reserve(keys: PolicedKey[], now: number): Promise<Reservation[]>;
  /**
   * Settles: `clear` counters are forgotten, `release` counters get one attempt back (block
   * recomputed). `trx`: the database store writes in it (a sign-in's one commit); Redis has none.
   */
  settle(clear: ThrottleKey[], release: PolicedKey[], trx?: Db): Promise<void>;
}
