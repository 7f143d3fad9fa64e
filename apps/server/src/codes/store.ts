/**
 * Where one-time codes and counters live: Redis when REDIS_URL is set, else the database,
 * so that several server processes agree (issue 3). Both stores decide expiry by the time
 * they are given (the injected clock, A-47) and consume atomically (SECURITY.md design rules).
 */
import type { Db } from '../platform/db.js';

export interface CodeKey {
  realmId: string;
  /** type namespace: `login-sms`, `register-email`, `captcha`, `ftoken`, … */
  purpose: string;
  /** keyed hash of the target (number, address, serial) */
  targetHash: string;
}

export interface NewCode {
  codeHash: string;
  serialNo: string;
  subject: string;
  createdAt: number;
  expiresAt: number;
}

export interface CodeAttempt {
  codeHash: string;
  serialNo: string;
  now: number;
  maxAttempts: number;
  /** check a right answer without consuming it (a second factor is still to come) */
  keep?: boolean;
}

export type CheckResult = { status: 'ok'; subject: string } | { status: 'missing' | 'expired' | 'used' | 'locked' | 'mismatch' | 'wrong' };

export interface CounterKey {
  realmId: string;
  name: string;
  keyHash: string;
  windowMs: number;
  now: number;
}

export interface CodeStore {
  readonly kind: 'redis' | 'database';
  /**
   * Writes (or overwrites: A-33 "resend overwrites previous code") the code for a key,
   * unless the previous one was written less than `minIntervalMs` ago; false then.
   */
  putCode(key: CodeKey, code: NewCode, minIntervalMs: number): Promise<boolean>;
  /**
   * Checks an answer in one atomic step (issue 8, A-33): whether this attempt may be compared
   * at all (unused, unexpired, fewer than `maxAttempts` wrong tries) is decided together with
   * the comparison and the count, so parallel guesses never compare more than the limit.
   * A right answer is consumed at once (unless `keep`), a wrong one counts as a try.
   */
  checkCode(key: CodeKey, attempt: CodeAttempt): Promise<CheckResult>;
  /**
   * Counts `tries` wrong tries against the code issued as `serialNo` (a wrong one-time
   * password after that code opened the second step), so a few of them spend it.
   */
  spendTries(key: CodeKey, serialNo: string, tries: number): Promise<void>;
  /** Counts one event in the current fixed window and returns the window's count. */
  hitCounter(key: CounterKey): Promise<number>;
  /** Several counters of one realm at once (the password form counts two), counts in key order. */
  hitCounters(keys: CounterKey[]): Promise<number[]>;
  /**
   * Takes one event back from each (an attempt counted in advance that succeeded); never below 0.
   * The database store writes in `trx` when given (a sign-in's writes commit together); Redis ignores it.
   */
  releaseCounters(keys: CounterKey[], trx?: Db): Promise<void>;
  clearCounter(key: CounterKey): Promise<void>;
}

/** Fixed windows: `now` falls into window `floor(now / windowMs)`. */
export function windowOf(key: CounterKey): { index: number; end: number } {
  const index = Math.floor(key.now / key.windowMs);
  return { index, end: (index + 1) * key.windowMs };
}
