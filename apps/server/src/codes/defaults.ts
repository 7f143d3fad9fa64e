/**
 * Security-relevant defaults for codes, captchas and mail links, in one place (STYLE §11).
 * Issue 3: 6 digits, 5 minutes, single use, ≤ 5 wrong tries, resend after 60 s, daily caps.
 */
import { LIMITS } from '@umbo/contracts';

const MINUTE = 60_000;
export const DAY_MS = 24 * 60 * MINUTE;

export const CODE_DEFAULTS = {
  /** ASVS 6.5: ≥ 6 digits from a CSPRNG */
  digits: 6,
  ttlMs: 5 * MINUTE,
  maxAttempts: 5,
  /**
   * Issue 8: a wrong one-time password after a sign-in code costs the code this many of its
   * tries, so the third wrong one spends it (the account's lock counts them too).
   */
  triesPerWrongSecondFactor: 2,
  resendAfterMs: 60_000,
  dailyCapPerTarget: 10,
  dailyCapPerIp: 30,
} as const;

export const CAPTCHA_DEFAULTS = {
  length: 4,
  ttlMs: 2 * MINUTE,
  /** password failures (per account or IP) before 'after_failures' asks for a captcha */
  failuresBeforeCaptcha: 3,
  failureWindowMs: 15 * MINUTE,
  /**
   * 'after_failures' on the code, registration and recovery forms: requests per IP and form
   * in an hour before a captcha is due (a request that sends a message is the cost here).
   */
  formRequestsBeforeCaptcha: 3,
  formWindowMs: 60 * MINUTE,
} as const;

export const MAIL_LINK_DEFAULTS = {
  /** SPEC §4, §9: the activation mail is valid 24 hours */
  activateTtlMs: LIMITS.activationMs,
  /** ASVS 6.4.3 / Forgot Password cheat sheet: a short-lived reset token */
  resetTtlMs: 60 * MINUTE,
} as const;

export const FTOKEN_DEFAULTS = {
  /** a hand-over token only needs to survive one redirect */
  ttlMs: 2 * MINUTE,
} as const;

export const REGISTRATION_DEFAULTS = {
  /** registration answers 1205, so attempts are rate-limited per IP instead */
  perIpPerHour: 20,
  windowMs: 60 * MINUTE,
} as const;
