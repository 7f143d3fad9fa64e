/**
 * Password sign-in (SPEC §2 login sub-forms; DESIGN.md §5 "Account existence"): unknown user
 * and wrong password give the same 1010 after the same work; account state is told only
 * once the password (and the one-time password, when on) was right. Guesses are throttled
 * per account name and per IP; a blocked attempt is 1010 plus a lock notice.
 * Service accounts sign in here as `owner/subname` (DESIGN.md §4): their username_norm.
 */
import type { Account, AccountRepo } from '../accounts/accounts.repo.js';
import type { Clock } from '../platform/clock.js';
import { fail } from '../platform/errors.js';
import { assertMethod, type FlowSettings } from './flows/realm-policy.js';
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import type { IssuedSession, SessionService } from './sessions.service.js';
import { throttledError, type ThrottleCheck, type ThrottleService } from './throttle/throttle.service.js';

export interface LoginInput {
  realmId: string;
  username: string;
  password: string;
  ip: string;
  userAgent: string;
  /** a TOTP code or a recovery code, when the account has OTP on */
  otp?: string | undefined;
  captcha?: string | undefined;
  serialNo?: string | undefined;
  /** login region (country calling code), SPEC §3 "last login area" */
  country?: string | undefined;
}

/** The second factor (otp/otp.service.ts): 1503 when empty, 1502 when wrong. */
export interface SecondFactor {
  verifyAtLogin(account: Account, otp: string | undefined, subject: { username: string; ip: string }): Promise<void>;
}

/** The image captcha of the password form (captcha/captcha.service.ts), when wired. */
export interface PasswordCaptcha {
  guardPasswordLogin(realmId: string, input: { captcha?: string | undefined; serialNo?: string | undefined; username: string; ip: string }, settings: FlowSettings): Promise<void>;
  recordPasswordFailure(realmId: string, username: string, ip: string): Promise<void>;
}

export interface LoginDeps {
  accounts: AccountRepo;
  sessions: SessionService;
  clock: Clock;
  throttle: ThrottleService;
  otp: SecondFactor;
  captcha?: PasswordCaptcha;
  /** The realm's settings (auth/flows/realm-policy.ts): is the password method on, which captcha policy. */
  settingsOf(realmId: string): Promise<FlowSettings>;
}

export function createLoginService(deps: LoginDeps) {
  const { accounts, sessions, clock, throttle, otp, captcha, settingsOf } = deps;

  async function failed(input: LoginInput): Promise<never> {
    const wait = await throttle.recordFailure(input);
    await captcha?.recordPasswordFailure(input.realmId, input.username, input.ip);
    throw throttledError(wait);
  }

  /**
   * The account whose password this is, or 1010 — counted, and identical for unknown names;
   * with what the throttle saw, so that success clears only what is there.
   */
  async function checkPassword(input: LoginInput): Promise<{ account: Account; seen: ThrottleCheck }> {
    // Read once: the method switch here, the captcha policy in the guard (one query, not two).
    const settings = await settingsOf(input.realmId);
    assertMethod(settings, 'backend_support_login_method', 'password');
    const seen = await throttle.assertOpen(input);
    await captcha?.guardPasswordLogin(input.realmId, input, settings);
    const account = await accounts.findAccountByUsername(input.realmId, input.username);
    if (!account || !account.password_hash) {
      await burnPasswordCheck(input.password);
      return failed(input);
    }
    if (!(await verifyPassword(account.password_hash, input.password))) return failed(input);
    if (needsRehash(account.password_hash)) {
      // parameters went up since this hash was made; the plain password is at hand now.
      const password_hash = await hashPassword(input.password);
      await accounts.updateAccount(account.realm_id, account.id, { password_hash, updated_at: clock.now() });
      account.password_hash = password_hash;
    }
    return { account, seen };
  }

  async function login(input: LoginInput): Promise<{ account: Account; issued: IssuedSession }> {
    const { account, seen } = await checkPassword(input);
    await otp.verifyAtLogin(account, input.otp, { username: input.username, ip: input.ip });
    if (account.disabled) throw fail('ACCOUNT_DISABLED');
    if (!account.activated) throw fail('EMAIL_NOT_ACTIVATED');
    // A service account with force_password gets its session; the guard then allows only
    // password change, logout and user info (1008) until the flag clears.
    const issued = await sessions.issue(account, { ip: input.ip, userAgent: input.userAgent });
    const now = clock.now();
    const area = input.country?.replace(/^\+/, '') ?? account.last_login_area;
    await accounts.updateAccount(account.realm_id, account.id, { last_login_at: now, last_login_area: area });
    await throttle.clearAccount(input, seen);
    return { account: { ...account, last_login_at: now, last_login_area: area }, issued };
  }

  return { login };
}

export type LoginService = ReturnType<typeof createLoginService>;
