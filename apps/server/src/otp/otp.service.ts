/**
 * One-time passwords (SPEC §3 "Security", §4; issue 3; A-32): TOTP per RFC 6238 with a
 * 160-bit secret sealed at rest, ±1 step, server clock only, each accepted step
 * recorded so that no code works twice. Turning it on or off takes two consecutive codes
 * (SPEC §4: "doing so needs two consecutive codes"); turning it off without the device
 * takes the password and a recovery code.
 */
import type { Account } from '../accounts/accounts.repo.js';
import { verifyPassword } from '../auth/passwords.js';
import type { Reauth } from '../auth/throttle/reauth.js';
import type { ThrottleService } from '../auth/throttle/throttle.service.js';
import type { NoticeMeta, SecurityNotices } from '../notify/security-notices.js';
import type { Clock } from '../platform/clock.js';
import type { Secrets } from '../platform/crypto.js';
import type { Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import { base32Decode, matchingSteps, newTotpSecret, otpauthUri, stepAt } from './totp.js';
import type { OtpOwner, OtpRepo } from './otp.repo.js';
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes } from './recovery-codes.js';

/** A setup not confirmed within this time must be started again. */
const PENDING_TTL_MS = 10 * 60 * 1000;
const CODE = /^\d{6}$/;

export interface OtpDeps {
  repo: OtpRepo;
  secrets: Secrets;
  clock: Clock;
  throttle: ThrottleService;
  reauth: Reauth;
  /** tells the owner OTP went on or off (ASVS 5.0 V6.3.7) */
  notices: SecurityNotices;
  /** the issuer shown in authenticator apps */
  issuer: string;
  transact: Transact;
}

const ownerOf = (a: Account): OtpOwner => ({ realmId: a.realm_id, accountId: a.id });

export function createOtpService(deps: OtpDeps) {
  const { repo, secrets, clock, throttle, reauth, transact } = deps;
  const keyOf = (sealed: string) => base32Decode(secrets.decrypt(sealed));

  /** The step s with first = code(s) and second = code(s+1), s+1 within ±1 of now. */
  function consecutiveStep(key: Buffer, first: string, second: string): number | undefined {
    if (!CODE.test(first) || !CODE.test(second)) return undefined;
    const now = clock.now();
    const seconds = matchingSteps(key, second, now);
    const firsts = new Set(matchingSteps(key, first, now, 2));
    return seconds.map((s) => s - 1).find((s) => firsts.has(s));
  }

  async function isEnabled(account: Account): Promise<boolean> {
    const row = await repo.findOtp(ownerOf(account));
    return Boolean(row?.enabled);
  }

  async function status(account: Account) {
    const o = ownerOf(account);
    const row = await repo.findOtp(o);
    const enabled = Boolean(row?.enabled);
    return {
      enabled,
      pending: Boolean(row?.pending_secret && row.pending_at !== null && row.pending_at > clock.now() - PENDING_TTL_MS),
      recoveryCodesLeft: enabled ? await repo.countUnusedRecoveryCodes(o) : 0,
    };
  }

  /** Step 1: after the password, a new secret and its otpauth:// URI for the QR code. */
  async function setup(account: Account, input: { password: string; ip: string }) {
    await reauth.confirmPassword(account, input.password, input.ip);
    assertThat(!(await isEnabled(account)), 'INVALID_PARAMETER', { field: 'otp', reason: 'already_enabled' });
    const secret = newTotpSecret();
    await repo.savePendingSecret(ownerOf(account), secrets.encrypt(secret), clock.now());
    return { secret, uri: otpauthUri(secret, deps.issuer, account.username), expiresAt: clock.now() + PENDING_TTL_MS };
  }

  /** Step 2: two consecutive codes from the new secret turn OTP on; recovery codes shown once. */
  async function enable(account: Account, input: { firstCode: string; secondCode: string }, meta: NoticeMeta) {
    const o = ownerOf(account);
    const row = await repo.findOtp(o);
    assertThat(!row?.enabled, 'INVALID_PARAMETER', { field: 'otp', reason: 'already_enabled' });
    const pending = row?.pending_secret;
    assertThat(pending && row.pending_at !== null && row.pending_at > clock.now() - PENDING_TTL_MS, 'INVALID_PARAMETER', {
      field: 'otp',
      reason: 'no_pending_setup',
    });
    const step = consecutiveStep(keyOf(pending), input.firstCode, input.secondCode);
    assertThat(step !== undefined, 'OTP_FAILED');
    const codes = newRecoveryCodes();
    const now = clock.now();
    const done = await transact(async (trx) => {
      // The codes just shown are spent: last_step = the second code's step.
      if (!(await repo.activatePendingSecret(o, pending, step + 1, now, trx))) return false;
      await repo.replaceRecoveryCodes(
        o,
        codes.map((c) => hashRecoveryCode(secrets, account.id, c)),
        now,
        trx,
      );
      return true;
    });
    assertThat(done, 'OTP_FAILED');
    deps.notices.send(account, 'otp_enabled', meta);
    return { recoveryCodes: codes };
  }

  /** Consumes a TOTP code: a matching step above the last accepted one, atomically. */
  async function acceptCode(o: OtpOwner, sealed: string, code: string, lastStep: number): Promise<boolean> {
    if (!CODE.test(code)) return false;
    for (const s of matchingSteps(keyOf(sealed), code, clock.now())) {
      if (s > lastStep && (await repo.advanceStep(o, s, s, clock.now()))) return true;
    }
    return false;
  }

  async function acceptRecoveryCode(o: OtpOwner, code: string): Promise<boolean> {
    if (!looksLikeRecoveryCode(code)) return false;
    return repo.consumeRecoveryCode(o, hashRecoveryCode(secrets, o.accountId, code), clock.now());
  }

  /** A TOTP code or an unused recovery code, consumed atomically. */
  async function accept(o: OtpOwner, sealed: string, lastStep: number, otp: string): Promise<boolean> {
    return (await acceptCode(o, sealed, otp.trim(), lastStep)) || (await acceptRecoveryCode(o, otp));
  }

  /**
   * The second factor of the password form, checked under the attempt the password reserved
   * (login.service.ts settles it): 'off' when the account has no OTP.
   */
  async function checkAtLogin(account: Account, otp: string | undefined): Promise<'off' | 'empty' | 'ok' | 'wrong'> {
    const o = ownerOf(account);
    const row = await repo.findOtp(o);
    if (!row?.enabled || !row.secret) return 'off';
    if (!otp) return 'empty';
    return (await accept(o, row.secret, row.last_step, otp)) ? 'ok' : 'wrong';
  }

  /**
   * The second factor where nothing was reserved yet: SMS and email code sign-in (issue 8,
   * The guess passes the same lock as the password form, keyed by the account's
   * user name, so holding the phone or the mailbox is never enough to walk 10^6 codes;
   * `onWrong` lets the caller spend the code that opened this step. 1503 when empty (no
   * guess, nothing counted), 1502 (+ lock notice) when wrong or locked.
   */
  async function proveAtSignIn(account: Account, otp: string | undefined, ip: string, onWrong?: () => Promise<void>): Promise<boolean> {
    const o = ownerOf(account);
    const row = await repo.findOtp(o);
    if (!row?.enabled || !row.secret) return false;
    if (!otp) throw fail('OTP_EMPTY');
    const attempt = await throttle.begin({ realmId: account.realm_id, username: account.username_norm, ip }, 'OTP_FAILED');
    if (await accept(o, row.secret, row.last_step, otp)) {
      await attempt.succeeded();
      // true: the audit trail records a passed one-time password (issue 11)
      return true;
    }
    await onWrong?.();
    throw attempt.failed();
  }

  /** Off with two consecutive codes, or (device lost) with the password and a recovery code. */
  async function disable(account: Account, input: { firstCode?: string; secondCode?: string; password?: string; recoveryCode?: string }, meta: NoticeMeta) {
    const o = ownerOf(account);
    const row = await repo.findOtp(o);
    assertThat(row?.enabled && row.secret, 'INVALID_PARAMETER', { field: 'otp', reason: 'not_enabled' });
    // Reserved before anything is checked (issue 8): parallel guesses cannot pass the budget.
    const attempt = await throttle.begin({ realmId: account.realm_id, username: account.username_norm, ip: meta.ip }, 'OTP_FAILED');
    let proven = false;
    if (input.firstCode && input.secondCode) {
      const step = consecutiveStep(keyOf(row.secret), input.firstCode, input.secondCode);
      // Both steps must be unused: last_step < s, then last_step = s + 1.
      proven = step !== undefined && (await repo.advanceStep(o, step, step + 1, clock.now()));
    } else if (input.password && input.recoveryCode) {
      // Password and recovery code are one guess under the attempt above; a wrong password
      // is told as such (1010), like the other places that ask for it.
      if (!account.password_hash || !(await verifyPassword(account.password_hash, input.password))) throw attempt.failed('BAD_CREDENTIALS');
      proven = await acceptRecoveryCode(o, input.recoveryCode);
    } else {
      await attempt.notAGuess();
      throw fail('OTP_EMPTY');
    }
    if (!proven) throw attempt.failed();
    await attempt.succeeded();
    await transact(async (trx) => {
      await repo.disableOtp(o, clock.now(), trx);
      await repo.replaceRecoveryCodes(o, [], clock.now(), trx);
    });
    deps.notices.send(account, 'otp_disabled', meta);
    return { enabled: false };
  }

  return { status, setup, enable, disable, checkAtLogin, proveAtSignIn, isEnabled, currentStep: () => stepAt(clock.now()) };
}

export type OtpService = ReturnType<typeof createOtpService>;
