/**
 * Per-account and per-IP throttling of password and one-time-password guesses (issue 3,
 * A blocked attempt is answered like a wrong password (1010) plus a notice in errData
 * ({locked: true, retryAfter: seconds}) — never a code of its own, and the same for a user
 * name nobody has, because the counter is keyed by the name as typed (A-30, DESIGN.md §5).
 * Nothing here touches the account row: password reset keeps working while a lock runs.
 */
import { ErrorCodes, type ErrorName } from '@umbo/contracts';
import { normaliseUsername } from '../../accounts/accounts.repo.js';
import type { Clock } from '../../platform/clock.js';
import type { Secrets } from '../../platform/crypto.js';
import { ApiError } from '../../platform/errors.js';
import { THROTTLE_DEFAULTS, blockFor, type ThrottlePolicy } from './defaults.js';
import type { ThrottleKey, ThrottleKind, ThrottleStore } from './store.js';

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

/** What one read of the counters found. */
export interface ThrottleCheck {
  /** milliseconds until the next attempt may be made (0: now) */
  wait: number;
  /** whether the account name had a failure counter */
  accountCounted: boolean;
}

export function createThrottleService(deps: { store: ThrottleStore; secrets: Secrets; clock: Clock; policy?: Record<ThrottleKind, ThrottlePolicy> }) {
  const { store, secrets, clock } = deps;
  const policy = deps.policy ?? THROTTLE_DEFAULTS;

  const accountKey = (s: Pick<ThrottleSubject, 'realmId' | 'username'>): ThrottleKey => ({
    realmId: s.realmId,
    kind: 'account',
    keyHash: secrets.hash('throttle-account', normaliseUsername(s.username)),
  });
  const ipKey = (s: Pick<ThrottleSubject, 'realmId' | 'ip'>): ThrottleKey => ({ realmId: s.realmId, kind: 'ip', keyHash: secrets.hash('throttle-ip', s.ip) });

  /** Both counters, read together: how long until the subject may try again (0: now). */
  async function check(s: ThrottleSubject): Promise<ThrottleCheck> {
    const now = clock.now();
    const [account, ip] = await store.getMany([accountKey(s), ipKey(s)]);
    const wait = Math.max(0, ...[account, ip].map((st) => (st && st.blockedUntil > now ? st.blockedUntil - now : 0)));
    return { wait, accountCounted: account !== undefined };
  }

  /** Refuses an attempt while the account name or the address is blocked (1010 + notice). */
  async function assertOpen(s: ThrottleSubject, name: ErrorName = 'BAD_CREDENTIALS'): Promise<ThrottleCheck> {
    const checked = await check(s);
    if (checked.wait > 0) throw throttledError(checked.wait, name);
    return checked;
  }

  /** Counts a failure on both counters; returns how long the next attempt must wait. */
  async function recordFailure(s: ThrottleSubject): Promise<number> {
    const now = clock.now();
    let wait = 0;
    for (const key of [accountKey(s), ipKey(s)]) {
      const p = policy[key.kind];
      const failures = await store.recordFailure(key, now, p.windowMs);
      const ms = blockFor(p, failures);
      if (ms > 0) {
        await store.block(key, now + ms);
        wait = Math.max(wait, ms);
      }
    }
    return wait;
  }

  /**
   * A successful sign-in (or a password reset) forgets the account name's failures. `seen`:
   * what assertOpen read for this attempt; when the name had no counter then, there is
   * nothing to forget (a failure counted in the meantime stays, which only errs strict).
   */
  async function clearAccount(s: Pick<ThrottleSubject, 'realmId' | 'username'>, seen?: ThrottleCheck): Promise<void> {
    if (seen && !seen.accountCounted) return;
    await store.clear(accountKey(s));
  }

  return { assertOpen, recordFailure, clearAccount };
}

export type ThrottleService = ReturnType<typeof createThrottleService>;
