/**
 * Rules for a new password (A-29; ASVS 6.2.1, 6.2.4–5, 6.2.12): SPEC §5's floor of 6, or the
 * realm's stricter passwordMinLength; not on the common-passwords list; no composition rules.
 * Length counts characters (code points), as people count them. An account rule: registration,
 * recovery (auth/flows), the own password change (me/) and administrators setting a password
 * all use this one check.
 */
import { LIMITS } from '@umbo/contracts';
import { fail } from '../platform/errors.js';
import { isCommonPassword } from './common-passwords.js';

export type PasswordRejection = 'too_short' | 'too_common' | 'same_as_old';

export function passwordProblem(password: string, realmMinLength: number): { reason: PasswordRejection; min: number } | undefined {
  const min = Math.max(LIMITS.passwordMin, realmMinLength || 0);
  if ([...password].length < min) return { reason: 'too_short', min };
  if (isCommonPassword(password)) return { reason: 'too_common', min };
  return undefined;
}

/** Throws 1021 with errData {reason, min} when the password breaks the policy. */
export function assertAcceptablePassword(password: string, realmMinLength: number): void {
  const problem = passwordProblem(password, realmMinLength);
  if (problem) throw fail('PASSWORD_REJECTED', problem);
}
