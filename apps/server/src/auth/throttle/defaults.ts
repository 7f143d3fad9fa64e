/**
 * Brute-force policy for password sign-in (issue 3; A-31; ASVS 6.3.1; RFC 6749 §10.10 /
 * RFC 6819 §5.1.4.2.3). Counters are per realm and keyed by the *typed* user name, so an
 * unknown name is throttled exactly like a known one (A-30, DESIGN.md §5). After
 * `freeFailures` each failure blocks the next attempt for a growing delay; from
 * `lockAfter` failures on, a temporary lock that doubles up to `maxLockMs`.
 * Counters forget after `windowMs` without a failure, or at a successful sign-in (the
 * account counter only: one valid account must not reset an IP that guesses others).
 */
import { PROTECTION_DEFAULTS, type RealmProtection } from '@umbo/contracts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

export interface ThrottlePolicy {
  freeFailures: number;
  baseDelayMs: number;
  lockAfter: number;
  lockMs: number;
  maxLockMs: number;
  windowMs: number;
}

/**
 * A realm's protection group (issue 11, contracts realm-groups.ts) as throttle policies.
 * The group's bounds keep every policy a real one: a lock always comes, lasts ≥ 1 minute.
 */
export function throttlePolicyOf(p: Pick<RealmProtection, 'account' | 'ip'>): Record<'account' | 'ip', ThrottlePolicy> {
  const one = (c: RealmProtection['account']): ThrottlePolicy => ({
    freeFailures: c.freeFailures,
    baseDelayMs: c.delaySeconds * SECOND,
    lockAfter: c.lockAfter,
    lockMs: c.lockMinutes * MINUTE,
    maxLockMs: c.maxLockMinutes * MINUTE,
    windowMs: c.windowMinutes * MINUTE,
  });
  return { account: one(p.account), ip: one(p.ip) };
}

/**
 * Today's defaults (PROTECTION_DEFAULTS, shown on the realm page as they are):
 * account: 3 free tries, then 1 s, 2 s, … 32 s, then 15 min, 30 min, 1 h: ≤ ~30 guesses a day;
 * forgotten after 24 h. ip: one address may serve many people (NAT): 20 free, lock from 100,
 * forgotten after 1 h.
 */
export const THROTTLE_DEFAULTS: Record<'account' | 'ip', ThrottlePolicy> = throttlePolicyOf(PROTECTION_DEFAULTS);

/** How long the attempt after the `failures`-th failure must wait, 0 for not at all. */
export function blockFor(policy: ThrottlePolicy, failures: number): number {
  if (failures <= policy.freeFailures) return 0;
  if (failures < policy.lockAfter) return Math.min(policy.baseDelayMs * 2 ** (failures - policy.freeFailures - 1), policy.lockMs);
  return Math.min(policy.lockMs * 2 ** Math.min(failures - policy.lockAfter, 20), policy.maxLockMs);
}

/**
 * blockFor as runs of equal values, `[lastCount, ms]` in ascending order, then the cap: the
 * stores compute the same function inside one atomic statement (SQL CASE, Lua) from these.
 */
export function blockRuns(policy: ThrottlePolicy): { runs: [number, number][]; beyond: number } {
  const runs: [number, number][] = [];
  const last = policy.lockAfter + 21; // past it blockFor is the cap (2^20 · lockMs ≥ any maxLockMs)
  for (let n = 1; n <= last; n++) {
    const ms = blockFor(policy, n);
    const tail = runs[runs.length - 1];
    if (tail && tail[1] === ms) tail[0] = n;
    else runs.push([n, ms]);
  }
  return { runs, beyond: blockFor(policy, last + 1) };
}
