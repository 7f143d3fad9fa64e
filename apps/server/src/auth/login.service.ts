/**
 * Password sign-in (SPEC §2 login sub-forms; DESIGN.md §5 "Account existence"): unknown user
 * and wrong password give the same 1010 after the same work; account state is told only
 * once the password (and the one-time password, when on) was right. Guesses are reserved
 * per account name and per IP before they are checked (A-31, issue 8); a blocked attempt is
 * 1010 plus a lock notice.
 * Service accounts sign in here as `owner/subname` (DESIGN.md §4): their username_norm.
 */
import type { Account, AccountRepo } from '../accounts/accounts.repo.js';
import type { SignInEvents, SignInTrace } from '../audit/sign-in-events.js';
import { OTP_TICKET_TRIES } from '../captcha/captcha.service.js';
import type { Clock } from '../platform/clock.js';
import type { Db, Transact } from '../platform/db.js';
import { ApiError, fail } from '../platform/errors.js';
import { assertMethod, type FlowSettings } from '../realms/realm-policy.js';
import { protectionOf } from '../realms/realm-settings.js';
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import type { IssuedSession, SessionService } from './sessions.service.js';
import { throttlePolicyOf } from './throttle/defaults.js';
import type { Attempt, ThrottleService } from './throttle/throttle.service.js';

type HeldCaptcha = Awaited<ReturnType<PasswordCaptcha['guardPasswordLogin']>>;
/** Credentials that were right: the attempt and the captcha's counters are settled by the caller, with the sign-in's other writes. */
type Checked = { account: Account; attempt: Attempt; held: HeldCaptcha | undefined };

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
  /** the 1503/1502 answer's ticket: the OTP step of the same attempt needs no second captcha */
  otpTicket?: string | undefined;
  /** login region (country calling code), SPEC §3 "last login area" */
  country?: string | undefined;
}

/** The second factor (otp/otp.service.ts). */
export interface SecondFactor {
  /** Under an attempt already reserved (the password form): 'off' when the account has none. */
  checkAtLogin(account: Account, otp: string | undefined): Promise<'off' | 'empty' | 'ok' | 'wrong'>;
  /** Reserving its own attempt on the account's lock (code sign-ins): throws 1503 / 1502; true when a code was checked and right. */
  proveAtSignIn(account: Account, otp: string | undefined, ip: string, onWrong?: () => Promise<void>): Promise<boolean>;
}

/** The image captcha of the password form (captcha/captcha.service.ts), when wired. */
export interface PasswordCaptcha {
  guardPasswordLogin(
    realmId: string,
    input: { captcha?: string | undefined; serialNo?: string | undefined; otpTicket?: string | undefined; username: string; ip: string },
    settings: FlowSettings,
  ): Promise<{
    /** gives the attempt's failure counters back; in `trx` when joinsTransaction */
    succeeded(trx?: Db): Promise<void>;
    joinsTransaction?: boolean;
    ticket?: { accountId: string; triesLeft: number };
  }>;
  issueOtpTicket(realmId: string, username: string, accountId: string, triesLeft: number): Promise<string>;
}

export interface LoginDeps {
  accounts: AccountRepo;
  sessions: SessionService;
  clock: Clock;
  throttle: ThrottleService;
  otp: SecondFactor;
  captcha?: PasswordCaptcha;
  /** The realm's settings (realms/realm-policy.ts): is the password method on, which captcha policy. */
  settingsOf(realmId: string): Promise<FlowSettings>;
  /** the audit trail's sign-in events (issue 11) */
  signIns?: SignInEvents;
  /** realms whose accounts live behind an IT-interface backend (issue 14, federation/it) */
  federation?: FederatedPasswords;
  /** the sign-in's writes after the password was right commit together */
  transact: Transact;
}

/** Password sign-in delegated to a realm's backend (federation/it/it.service.ts). */
export interface FederatedPasswords {
  /** does the backend check this user name's password (a service account's is checked here)? */
  handles(settings: FlowSettings, username: string): boolean;
  /** the shadow account, undefined for wrong credentials; 1303 when the backend fails */
  passwordSignIn(
    realmId: string,
    settings: FlowSettings,
    input: { username: string; password: string; country?: string | undefined },
  ): Promise<Account | undefined>;
}

export function createLoginService(deps: LoginDeps) {
  const { accounts, sessions, clock, throttle, otp, captcha, settingsOf, signIns, federation } = deps;

  /**
   * The backend checks the password (issue 14): wrong credentials are 1300 with 1010's
   * message under the same throttle; an outage (1303) is not a guess and gives the attempt back.
   */
  async function federatedAccount(input: LoginInput, settings: FlowSettings, attempt: Attempt): Promise<Account> {
    let account: Account | undefined;
    try {
      account = await federation!.passwordSignIn(input.realmId, settings, input);
    } catch (err) {
      await attempt.notAGuess();
      throw err;
    }
    if (!account) throw attempt.failed();
    return account;
  }

  /**
   * The account whose password (and one-time password, when on) this is, or 1010 / 1503 /
   * 1502. The guess is reserved on the throttle before argon2 runs (issue 8, A-31), and
   * an unknown name costs the same hash and counts the same.
   */
  async function checkCredentials(input: LoginInput, trace: SignInTrace = {}): Promise<Checked> {
    // Read once: the method switch here, the captcha policy in the guard (one query, not two).
    const settings = await settingsOf(input.realmId);
    trace.settings = settings;
    const p = protectionOf(settings);
    trace.lockMs = Math.min(p.account.lockMinutes, p.ip.lockMinutes) * 60_000;
    assertMethod(settings, 'backend_support_login_method', 'password');
    const held = await captcha?.guardPasswordLogin(input.realmId, input, settings);
    // The federation decides, per user name: a service account stays umbo's own (issue 14).
    const federated = federation?.handles(settings, input.username) ?? false;
    const attempt = await throttle.begin(input, federated ? 'BACKEND_BAD_CREDENTIALS' : undefined, throttlePolicyOf(p));
    trace.admitted = true;
    if (federated) return finish(input, await federatedAccount(input, settings, attempt), attempt, held, trace);
    const account = await accounts.findAccountByUsername(input.realmId, input.username);
    trace.account = account;
    if (!account || !account.password_hash) {
      await burnPasswordCheck(input.password);
      throw attempt.failed();
    }
    if (!(await verifyPassword(account.password_hash, input.password))) throw attempt.failed();
    if (needsRehash(account.password_hash)) {
      // parameters went up since this hash was made; the plain password is at hand now.
      const password_hash = await hashPassword(input.password);
      await accounts.updateAccount(account.realm_id, account.id, { password_hash, updated_at: clock.now() });
      account.password_hash = password_hash;
    }
    return finish(input, account, attempt, held, trace);
  }

  /** After the password was right: the ticket, the second factor; the attempt and the captcha's counters are left for the caller to settle. */
  async function finish(input: LoginInput, account: Account, attempt: Attempt, held: HeldCaptcha | undefined, trace: SignInTrace): Promise<Checked> {
    trace.account = account;
    // A ticket answers only for the account it was issued to (issue 10).
    if (held?.ticket && held.ticket.accountId !== account.id) throw attempt.failed();
    // The second factor is part of the same guess: the attempt covers it.
    const second = await otp.checkAtLogin(account, input.otp);
    trace.second = second;
    if (second === 'wrong') {
      // Still counted on the throttle like any guess (issue 8); the next OTP try of this
      // attempt needs no new captcha until the ticket's tries are spent (issue 10).
      const err = attempt.failed('OTP_FAILED');
      const triesLeft = (held?.ticket?.triesLeft ?? OTP_TICKET_TRIES + 1) - 1;
      if (!captcha || triesLeft < 1) throw err;
      const otpTicket = await captcha.issueOtpTicket(input.realmId, input.username, account.id, triesLeft);
      throw new ApiError(err.def, { ...err.errData, otpTicket }, err.headers);
    }
    if (second === 'empty') {
      // Nothing was guessed yet: the password step gives its attempt back and asks for the code.
      await held?.succeeded();
      await attempt.notAGuess();
      const otpTicket = await captcha?.issueOtpTicket(input.realmId, input.username, account.id, held?.ticket?.triesLeft ?? OTP_TICKET_TRIES);
      throw fail('OTP_EMPTY', otpTicket ? { otpTicket } : undefined);
    }
    return { account, attempt, held };
  }

  async function login(input: LoginInput): Promise<{ account: Account; issued: IssuedSession }> {
    const trace: SignInTrace = {};
    const request = { ip: input.ip, userAgent: input.userAgent };
    try {
      const { account, attempt, held } = await checkCredentials(input, trace);
      if (account.disabled || !account.activated) {
        // the password was right all the same: the attempt is settled as a success
        await attempt.succeeded();
        await held?.succeeded();
        throw fail(account.disabled ? 'ACCOUNT_DISABLED' : 'EMAIL_NOT_ACTIVATED');
      }
      const now = clock.now();
      const area = input.country?.replace(/^\+/, '') ?? account.last_login_area;
      // a Redis counter is settled first: no network round trip while the transaction is open
      if (!attempt.joinsTransaction) await attempt.succeeded();
      if (held && !held.joinsTransaction) await held.succeeded();
      // One commit for the attempt settled, the captcha's counters given back, the session, the
      // last sign-in and the audit row (issue 14 bench: each write on its own was a WAL append and
      // lock round of its own): all of them or none, so no session exists without its audit row.
      const issued = await deps.transact(async (trx) => {
        if (attempt.joinsTransaction) await attempt.succeeded(trx);
        if (held?.joinsTransaction) await held.succeeded(trx);
        // A service account with force_password gets its session; the guard then allows only
        // password change, logout and user info (1008) until the flag clears.
        const issued = await sessions.issue(account, request, { trx });
        await accounts.recordSignIn(account.realm_id, account.id, now, area, trx);
        if (trace.second === 'ok') await signIns?.secondFactorPassed('password', account, request, trx);
        // the settings read above: the audit's data-centre tap and the Ali Living hook read them no second time
        await signIns?.succeeded('password', account, request, trx, trace.settings);
        return issued;
      });
      return { account: { ...account, last_login_at: now, last_login_area: area }, issued };
    } catch (err) {
      await signIns?.failed('password', input.realmId, trace, request, err);
      throw err;
    }
  }

  return { login };
}

export type LoginService = ReturnType<typeof createLoginService>;
