/**
 * "Prove it is still you" for sensitive changes by a signed-in user (A-36: changing the
 * password, email, phone or MFA needs the current password or OTP). A wrong password counts
 * on the same throttle as sign-in, so a stolen session cannot guess the password here.
 */
import type { Account } from '../../accounts/accounts.repo.js';
import { verifyPassword } from '../passwords.js';
import { throttledError, type ThrottleService } from './throttle.service.js';

export function createReauth(deps: { throttle: ThrottleService }) {
  const { throttle } = deps;

  async function confirmPassword(account: Account, password: string, ip: string): Promise<void> {
    const subject = { realmId: account.realm_id, username: account.username_norm, ip };
    await throttle.assertOpen(subject);
    if (!account.password_hash || !(await verifyPassword(account.password_hash, password))) {
      throw throttledError(await throttle.recordFailure(subject));
    }
  }

  return { confirmPassword };
}

export type Reauth = ReturnType<typeof createReauth>;
