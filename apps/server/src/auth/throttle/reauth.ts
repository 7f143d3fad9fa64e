/**
 * "Prove it is still you" for sensitive changes by a signed-in user (A-36: changing the
 * password, email, phone or MFA needs the current password or OTP). The guess is reserved
 * on the same throttle as sign-in before it is checked (issue 8), so a stolen session cannot
 * guess the password here, not even with many requests at once.
 */
import type { Account } from '../../accounts/accounts.repo.js';
import { verifyPassword } from '../passwords.js';
import type { ThrottleService } from './throttle.service.js';

export function createReauth(deps: { throttle: ThrottleService }) {
  const { throttle } = deps;

  async function confirmPassword(account: Account, password: string, ip: string): Promise<void> {
    const attempt = await throttle.begin({ realmId: account.realm_id, username: account.username_norm, ip });
    if (!account.password_hash || !(await verifyPassword(account.password_hash, password))) throw attempt.failed();
    await attempt.succeeded();
  }

  return { confirmPassword };
}

export type Reauth = ReturnType<typeof createReauth>;
