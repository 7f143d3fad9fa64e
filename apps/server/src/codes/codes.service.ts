/**
 * 6-digit SMS and email codes (issue 3; A-33): CSPRNG digits, 5 minutes, single use, at most
 * 5 wrong tries, resend after 60 s (the resend replaces the old code), daily caps per target
 * and per IP, stored only as keyed hashes and bound to realm + purpose + target + serialNo
 * (the sign-in transaction that asked for it).
 */
import type { Clock } from '../platform/clock.js';
import { randomDigits, randomString, type Secrets } from '../platform/crypto.js';
import { ApiError, fail } from '../platform/errors.js';
import { CODE_DEFAULTS, DAY_MS } from './defaults.js';
import type { CheckResult, CodeStore } from './store.js';

export type CodeChannel = 'sms' | 'email';
export type CodePurpose = 'login' | 'register' | 'retrieve' | 'bind';

export interface CodeTarget {
  realmId: string;
  purpose: CodePurpose;
  channel: CodeChannel;
  /** normalised: E.164 number or lower-cased address */
  target: string;
}

export interface IssuedCode {
  code: string;
  serialNo: string;
  expiresAt: number;
  resendAt: number;
}

export function createCodeService(deps: {
  store: CodeStore;
  secrets: Secrets;
  clock: Clock;
  /** wrong tries a code of the realm takes (issue 11: the realm's protection group); default CODE_DEFAULTS */
  maxAttemptsOf?: (realmId: string) => Promise<number>;
}) {
  const { store, secrets, clock } = deps;
  const purposeOf = (t: CodeTarget) => `${t.purpose}-${t.channel}`;
  const keyOf = (t: CodeTarget) => ({ realmId: t.realmId, purpose: purposeOf(t), targetHash: secrets.hash('code-target', `${purposeOf(t)}:${t.target}`) });
  const hashCode = (t: CodeTarget, code: string) => secrets.hash(`code:${purposeOf(t)}`, code);

  /** Counts a send against the daily caps; over a cap → 1006 (429). */
  async function chargeDailyCaps(t: CodeTarget, ip: string): Promise<void> {
    const now = clock.now();
    const perTarget = await store.hitCounter({
      realmId: t.realmId,
      name: `code-target-${t.channel}`,
      keyHash: secrets.hash('counter', t.target),
      windowMs: DAY_MS,
      now,
    });
    const perIp = await store.hitCounter({ realmId: t.realmId, name: 'code-ip', keyHash: secrets.hash('counter', ip), windowMs: DAY_MS, now });
    if (perTarget > CODE_DEFAULTS.dailyCapPerTarget || perIp > CODE_DEFAULTS.dailyCapPerIp) throw fail('RATE_LIMITED', { reason: 'daily_cap' });
  }

  /**
   * Makes a new code for a target. `subject` (an account id, or '' for a target no account
   * has) travels with the code, so unknown targets take exactly the same path (DESIGN.md §5).
   */
  async function issue(t: CodeTarget, meta: { ip: string; subject?: string }): Promise<IssuedCode> {
    await chargeDailyCaps(t, meta.ip);
    const now = clock.now();
    const code = randomDigits(CODE_DEFAULTS.digits);
    const serialNo = randomString(32);
    const expiresAt = now + CODE_DEFAULTS.ttlMs;
    const stored = await store.putCode(
      keyOf(t),
      { codeHash: hashCode(t, code), serialNo, subject: meta.subject ?? '', createdAt: now, expiresAt },
      CODE_DEFAULTS.resendAfterMs,
    );
    if (!stored) throw fail('RATE_LIMITED', { reason: 'resend_too_soon', retryAfterMs: CODE_DEFAULTS.resendAfterMs });
    return { code, serialNo, expiresAt, resendAt: now + CODE_DEFAULTS.resendAfterMs };
  }

  /**
   * Checks and consumes a code; returns its subject or throws the SPEC §8 code. With `keep`
   * a right code stays usable (sign-in checks the one-time password before spending it).
   */
  async function verify(t: CodeTarget, answer: { serialNo: string; code: string }, opts: { keep?: boolean } = {}): Promise<string> {
    const res = await store.checkCode(keyOf(t), {
      codeHash: hashCode(t, answer.code),
      serialNo: answer.serialNo,
      now: clock.now(),
      maxAttempts: deps.maxAttemptsOf ? await deps.maxAttemptsOf(t.realmId) : CODE_DEFAULTS.maxAttempts,
      keep: opts.keep ?? false,
    });
    if (res.status === 'ok') return res.subject;
    throw codeError(t.channel, res.status);
  }

  /**
   * A wrong one-time password after this code opened the second step (issue 8): it costs
   * the code CODE_DEFAULTS.triesPerWrongSecondFactor of its tries, so a few spend it.
   */
  async function spendForWrongSecondFactor(t: CodeTarget, serialNo: string): Promise<void> {
    await store.spendTries(keyOf(t), serialNo, CODE_DEFAULTS.triesPerWrongSecondFactor);
  }

  return { issue, verify, spendForWrongSecondFactor };
}

/**
 * SPEC §8: 4004 expired; 4006 wrong SMS code (also "no such code", so a target nobody
 * asked for looks like a wrong answer); 5002 wrong email code; 4007 a code that can no
 * longer be used (consumed, too many tries, or issued to another transaction).
 */
export function codeError(channel: CodeChannel, status: Exclude<CheckResult['status'], 'ok'>): ApiError {
  if (status === 'expired') return fail('CODE_EXPIRED');
  if (status === 'wrong' || status === 'missing') return fail(channel === 'email' ? 'EMAIL_CODE_WRONG' : 'CODE_INVALID');
  return fail('CODE_INVALID_ALT');
}

export type CodeService = ReturnType<typeof createCodeService>;
