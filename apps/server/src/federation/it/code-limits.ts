/**
 * The limits of umbo's own SMS codes (README: a new code after 60 s, 10 per number a day; A-33:
 * 5 wrong tries) for codes an IT backend sends and checks (issue 14). The backend's own limits
 * are its business and may be missing: without these, parallel requests pumped SMS through the
 * backend, and parallel guesses tried a 6-digit code without end. Each request or guess is
 * counted before the backend is asked (the sign-in hardening's "reserved before it is checked",
 * so a burst admits exactly the limit) and given back when the backend could not be asked.
 */
import { CODE_DEFAULTS, DAY_MS } from '../../codes/defaults.js';
import type { CodeStore, CounterKey } from '../../codes/store.js';
import type { Clock } from '../../platform/clock.js';
import type { Secrets } from '../../platform/crypto.js';
import { fail } from '../../platform/errors.js';

export interface ItCodeLimitDeps {
  counters: Pick<CodeStore, 'hitCounter' | 'releaseCounters'>;
  secrets: Pick<Secrets, 'hash'>;
  clock: Clock;
}

export function createItCodeLimits(d: ItCodeLimitDeps) {
  const key = (realmId: string, name: string, value: string, windowMs: number): CounterKey => ({
    realmId,
    name,
    keyHash: d.secrets.hash('counter', value),
    windowMs,
    now: d.clock.now(),
  });

  /**
   * Runs `send` when the number may get a code now: one per resend window (a fixed clock
   * window of 60 s), CODE_DEFAULTS.dailyCapPerTarget a day per number and dailyCapPerIp per
   * address (the counters local codes use, so both kinds of code share the caps). A
   * send the backend failed at is given back, so an outage does not cost the user a code.
   */
  async function sending<T>(realmId: string, e164: string, purpose: string, ip: string, send: () => Promise<T>): Promise<T> {
    const resend = key(realmId, `it-code-resend-${purpose}`, e164, CODE_DEFAULTS.resendAfterMs);
    if ((await d.counters.hitCounter(resend)) > 1) {
      throw fail('RATE_LIMITED', { reason: 'resend_too_soon', retryAfterMs: CODE_DEFAULTS.resendAfterMs });
    }
    const daily = key(realmId, 'code-target-sms', e164, DAY_MS);
    const perIp = key(realmId, 'code-ip', ip, DAY_MS);
    const charged = [resend, daily, perIp];
    const overTarget = (await d.counters.hitCounter(daily)) > CODE_DEFAULTS.dailyCapPerTarget;
    if (overTarget || (await d.counters.hitCounter(perIp)) > CODE_DEFAULTS.dailyCapPerIp) {
      await d.counters.releaseCounters(overTarget ? [resend, daily] : charged);
      throw fail('RATE_LIMITED', { reason: 'daily_cap' });
    }
    try {
      return await send();
    } catch (err) {
      await d.counters.releaseCounters(charged);
      throw err;
    }
  }

  /**
   * Runs `check` while the code sent as `serialNo` has wrong tries left (A-33: at most
   * CODE_DEFAULTS.maxAttempts); undefined without asking the backend once they are spent.
   * `check` answers undefined for a wrong code: that try stays counted. A right code, or a
   * backend that could not answer, gives its try back.
   */
  async function guessing<T>(realmId: string, e164: string, serialNo: string, check: () => Promise<T | undefined>): Promise<T | undefined> {
    const tries = key(realmId, 'it-code-tries', `${e164}\u0000${serialNo}`, DAY_MS);
    if ((await d.counters.hitCounter(tries)) > CODE_DEFAULTS.maxAttempts) return undefined;
    let found: T | undefined;
    try {
      found = await check();
    } catch (err) {
      await d.counters.releaseCounters([tries]);
      throw err;
    }
    if (found !== undefined) await d.counters.releaseCounters([tries]);
    return found;
  }

  return { sending, guessing };
}

export type ItCodeLimits = ReturnType<typeof createItCodeLimits>;
