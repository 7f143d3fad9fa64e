/**
 * Ten single-use recovery codes, shown once when OTP is enabled and accepted in place of a
 * code (issue 3). ~50 bits each, stored as keyed hashes bound to the account; guessing is
 * bounded by the sign-in throttle.
 */
import { randomString, type Secrets } from '../platform/crypto.js';

export const RECOVERY_CODE_COUNT = 10;
/** no 0/o, 1/i/l: codes are read off paper */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = randomString(10, ALPHABET);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

/** Case, spaces and the dash do not matter when typed back. */
export function normaliseRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, '');
}

export function looksLikeRecoveryCode(input: string): boolean {
  return /^[a-z0-9]{10}$/.test(normaliseRecoveryCode(input));
}

export function hashRecoveryCode(secrets: Secrets, accountId: string, code: string): string {
  return secrets.hash('otp-recovery', `${accountId}:${normaliseRecoveryCode(code)}`);
}
