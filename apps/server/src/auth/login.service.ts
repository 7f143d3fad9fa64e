/**
 * Password sign-in (SPEC §2 login sub-forms; DESIGN.md §5 "Account existence"): unknown user
 * and wrong password give the same 1010 after the same work; account state is told only
 * once the password was right.
 */
import type { Account, AccountRepo } from '../accounts/accounts.repo.js';
import type { Clock } from '../platform/clock.js';
import { fail } from '../platform/errors.js';
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import type { IssuedSession, SessionService } from './sessions.service.js';

export interface LoginInput {
  realmId: string;
  username: string;
  password: string;
  ip: string;
  userAgent: string;
}

export function createLoginService(deps: { accounts: AccountRepo; sessions: SessionService; clock: Clock }) {
  const { accounts, sessions, clock } = deps;

  async function checkPassword(input: LoginInput): Promise<Account> {
    const account = await accounts.findAccountByUsername(input.realmId, input.username);
    if (!account || !account.password_hash) {
      await burnPasswordCheck(input.password);
      throw fail('BAD_CREDENTIALS');
    }
    if (!(await verifyPassword(account.password_hash, input.password))) throw fail('BAD_CREDENTIALS');
    if (needsRehash(account.password_hash)) {
      await accounts.updateAccount(account.realm_id, account.id, { password_hash: await hashPassword(input.password), updated_at: clock.now() });
    }
    return account;
  }

  async function login(input: LoginInput): Promise<{ account: Account; issued: IssuedSession }> {
    const account = await checkPassword(input);
    if (account.disabled) throw fail('ACCOUNT_DISABLED');
    if (!account.activated) throw fail('EMAIL_NOT_ACTIVATED');
    const issued = await sessions.issue(account, { ip: input.ip, userAgent: input.userAgent });
    await accounts.updateAccount(account.realm_id, account.id, { last_login_at: clock.now() });
    return { account, issued };
  }

  return { login, checkPassword };
}

export type LoginService = ReturnType<typeof createLoginService>;
