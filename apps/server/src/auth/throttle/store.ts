/**
 * Where failure counters live: the database, or Redis when REDIS_URL is set so that every
 * server process sees the same counts. Decisions use the times passed in (injected clock, A-47).
 */
export type ThrottleKind = 'account' | 'ip';

export interface ThrottleKey {
  realmId: string;
  kind: ThrottleKind;
  keyHash: string;
}

export interface ThrottleState {
  failures: number;
  lastFailureAt: number;
  blockedUntil: number;
}

export interface ThrottleStore {
  readonly kind: 'database' | 'redis';
  /** Several counters of one realm in one round trip (a sign-in reads two), in key order. */
  getMany(keys: ThrottleKey[]): Promise<(ThrottleState | undefined)[]>;
  /**
   * Counts one failure atomically and returns the new count; a counter whose last failure
   * is older than `windowMs` starts again at 1.
   */
  recordFailure(key: ThrottleKey, now: number, windowMs: number): Promise<number>;
  /** Sets the block only if it extends the current one (parallel failures never shorten it). */
  block(key: ThrottleKey, until: number): Promise<void>;
  clear(key: ThrottleKey): Promise<void>;
}
