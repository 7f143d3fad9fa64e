/**
 * Per-account and per-IP throttling of password and one-time-password guesses (issues 3
 * and 8, A-31). Every guess first reserves an attempt on both counters (store.ts): a blocked
 * counter refuses it before any hashing, and otherwise the attempt is counted as a failure
 * in advance, so however many requests arrive at once only the budget is ever checked.
 * The caller then settles it: `succeeded` forgets the account name's failures and gives the
 * address its attempt back; `notAGuess` gives both back (e.g. the one-time password was
 * still to be typed); a failure needs nothing more.
 *
 * A blocked or failed attempt is answered like a wrong password (1010) plus a notice in
 * errData ({locked: true, retryAfter: seconds}), identical for a user name nobody has,
 * because the counter is keyed by the name as typed (A-30, DESIGN.md §5). Nothing here
 * touches the account row: password reset keeps working while a lock runs.
 */
import { ErrorCodes, type ErrorName } from '@umbo/contracts';
import { normaliseUsername } from '../../accounts/accounts.repo.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { Secrets } from '../../platform/crypto.js';
import { ApiError } from '../../platform/errors.js';
import { THROTTLE_DEFAULTS, type ThrottlePolicy } from './defaults.js';
import type { PolicedKey, Reservation, ThrottleKey, ThrottleKind, ThrottleStore } from './store.js';

export interface ThrottleSubject {
  realmId: string;
  /** the user name as typed (service accounts: owner/subname) */
  username: string;
  ip: string;
}

/** The failure `name` (default 1010), with the lock notice when the next try must wait. */
export function throttledError(waitMs: number, name: ErrorName = 'BAD_CREDENTIALS'): ApiError {
  if (waitMs <= 0) return new ApiError(ErrorCodes[name]);
  const retryAfter = Math.ceil(waitMs / 1000);
  return new ApiError(ErrorCodes[name], { locked: true, retryAfter }, { 'retry-after': String(retryAfter) });
}

/** One reserved guess. */
export interface Attempt {
  /** The answer when this guess fails: `name` plus the wait it set for the next one. */
  failed(name?: ErrorName): ApiError;
  /**
   * The guess was right: the account name's failures are forgotten, the address gets its attempt
   * back. `trx`: the sign-in's transaction, when its other writes commit with this one (database store).
   */
  succeeded(trx?: Db): Promise<void>;
  /** true when `succeeded(trx)` writes in `trx` (the database store); Redis settles on its own, best not inside a transaction. */
  readonly joinsTransaction?: boolean;
  /** Nothing was guessed after all (e.g. the one-time password is still to come): both attempts go back. */
  notAGuess(): Promise<void>;
}

export type ThrottlePolicies = Record<ThrottleKind, ThrottlePolicy>;

export function createThrottleService(deps: {
  store: ThrottleStore;
  secrets: Secrets;
  clock: Clock;
  policy?: ThrottlePolicies;
  /** the realm's own policies (issue 11: its protection group); default: deps.policy or THROTTLE_DEFAULTS */
  policyOf?: (realmId: string) => Promise<ThrottlePolicies>;
}) {
  const { store, secrets, clock } = deps;
  const fixed = deps.policy ?? THROTTLE_DEFAULTS;
  const policyOf = deps.policyOf ?? (async () => fixed);
  const accountKey = (s: Pick<ThrottleSubject, 'realmId' | 'username'>): ThrottleKey => ({
    realmId: s.realmId,
    kind: 'account',
    keyHash: secrets.hash('throttle-account', normaliseUsername(s.username)),
  });
  const ipKey = (s: Pick<ThrottleSubject, 'realmId' | 'ip'>): ThrottleKey => ({ realmId: s.realmId, kind: 'ip', keyHash: secrets.hash('throttle-ip', s.ip) });

  /**
   * Reserves one guess for the account name and the address, or throws `name` with the lock
   * notice while either is blocked (the refused attempt is not counted). `policies`: the
   * realm's own (throttlePolicyOf its protection group), when the caller has them at hand.
   */
  async function begin(s: ThrottleSubject, name: ErrorName = 'BAD_CREDENTIALS', policies?: ThrottlePolicies): Promise<Attempt> {
    // `policies`: the realm's, from settings the caller has just read (one settings read per sign-in, not two)
    const policy = policies ?? (await policyOf(s.realmId));
    const now = clock.now();
    const account = { key: accountKey(s), policy: policy.account };
    const ip = { key: ipKey(s), policy: policy.ip };
    const [a, i] = (await store.reserve([account, ip], now)) as [Reservation, Reservation];
    if (!a.admitted || !i.admitted) {
      // Refused: whatever one counter counted goes back (a blocked attempt is not counted).
      await store.settle(
        [],
        [a.admitted ? account : undefined, i.admitted ? ip : undefined].filter((k) => k !== undefined),
      );
      // A refusal always carries the lock notice: when the guesses still in flight spent the
      // budget, no lock time is set yet, but this attempt was blocked all the same (≥ 1 s).
      const blockedFor = Math.max(a.admitted ? 0 : a.blockedUntil, i.admitted ? 0 : i.blockedUntil) - now;
      throw throttledError(Math.max(blockedFor, 1000), name);
    }
    const wait = Math.max(a.blockedUntil, i.blockedUntil) - now;
    let settled = false;
    const settle = async (clear: ThrottleKey[], release: PolicedKey[], trx?: Db) => {
      if (settled) return;
      settled = true;
      await store.settle(clear, release, trx);
    };
    return {
      failed: (failName = name) => throttledError(wait, failName),
      succeeded: (trx) => settle([account.key], [ip], trx),
      joinsTransaction: store.kind === 'database',
      notAGuess: () => settle([], [account, ip]),
    };
  }

  /** After a recovered password: the name's lock ends at once (A-31: reset stays usable). */
  async function clearAccount(s: Pick<ThrottleSubject, 'realmId' | 'username'>): Promise<void> {
    await store.settle([accountKey(s)], []);
  }

  return { begin, clearAccount };
}

export type ThrottleService = ReturnType<typeof createThrottleService>;
