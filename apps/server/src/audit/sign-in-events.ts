/**
 * Sign-in events of the audit trail (issue 11): every sign-in, its failures, locks, one-time
 * password checks, codes sent, password changes and resets, registrations and activations.
 * The flows (auth/, otp/, me/) call these; what an event holds is decided here, once:
 *   - the account, as target (and as actor when it acted), only when the flow knew it: a name
 *     that matched no account is never stored, so the trail holds no typed-in guesses
 *     (detail says `reason: unknown_account`);
 *   - never a password, code, token or address typed in: detail carries the method, the
 *     reason (from the catalogue key of the answer) and small facts like channel and purpose;
 *   - the caller's address and browser.
 * Only administrators with audit.query read these (the sign-in answers themselves stay the
 * same for every failure, DESIGN.md §5), so the trail is no account-enumeration oracle.
 * A failure's event must not change the failure: when recording it fails too (the database
 * is away), the sign-in's own answer is what the caller gets.
 */
import type { Account } from '../accounts/accounts.repo.js';
import type { Db } from '../platform/db.js';
import { ApiError } from '../platform/errors.js';
import type { AuditService, RealmSettingsSeen } from './audit.service.js';

export type SignInMethod = 'password' | 'sms' | 'email' | 'ftoken' | 'upstream';
export interface SignInRequest {
  ip: string;
  userAgent: string;
}

/** What a sign-in flow learnt before it ended: whether the guess was admitted, which account. */
export interface SignInTrace {
  admitted?: boolean;
  account?: Account | undefined;
  /** the second factor's outcome on the password form */
  second?: 'off' | 'empty' | 'ok' | 'wrong';
  /** the realm's shortest lock: a failure that blocks the next try this long started a lock */
  lockMs?: number;
  /** the realm's settings as the flow read them (handed to `succeeded`) */
  settings?: RealmSettingsSeen;
}

/** Catalogue key of a failure → the reason stored (a small closed set; unknown keys read 'other'). */
const REASONS: Record<string, string> = {
  bad_credentials: 'bad_credentials',
  otp_failed: 'otp_failed',
  otp_empty: 'otp_empty',
  account_disabled: 'account_disabled',
  email_not_activated: 'email_not_activated',
  method_disabled: 'method_disabled',
  captcha_wrong: 'captcha',
  code_expired: 'code',
  code_invalid: 'code',
  email_code_wrong: 'code',
  user_exists: 'user_exists',
  password_rejected: 'password_rejected',
  rate_limited: 'rate_limited',
};

export function reasonOf(err: unknown): string {
  return err instanceof ApiError ? (REASONS[err.def.key] ?? 'other') : 'other';
}

/** Without the realm's policy: today's default first lock, 15 min (delays before it stay shorter). */
export const LOCK_MS = 15 * 60 * 1000;

const accountRef = (a: Pick<Account, 'id' | 'username'>) => ({ type: 'account', id: a.id, name: a.username });
const actorRef = (a: Pick<Account, 'id' | 'username'>) => ({ id: a.id, name: a.username });

export function createSignInEvents(audit: AuditService) {
  /** Records without letting a failed write replace the flow's own failure. */
  async function quietly(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch {
      // the caller rethrows its own error; a missing failure event is the lesser loss
    }
  }

  /**
   * A sign-in that issued a session. `settings`: the realm's settings as the flow read them at
   * its start, handed to the audit's taps so that they need not read them again (issue 14 bench).
   */
  async function succeeded(method: SignInMethod, account: Account, request: SignInRequest, trx?: Db, settings?: RealmSettingsSeen): Promise<void> {
    await audit.record(
      {
        realmId: account.realm_id,
        actor: actorRef(account),
        action: `signin.${method}`,
        target: accountRef(account),
        result: 'ok',
        request,
        detail: { method },
        realmSettings: settings,
      },
      trx,
    );
  }

  /**
   * A sign-in that ended in `err`. OTP_EMPTY is the password step asking for the code (no
   * guess): not a failure. A wrong one-time password is a failed `signin.otp`. A guess whose
   * failure starts a lock adds `signin.lock`.
   */
  async function failed(method: SignInMethod, realmId: string, trace: SignInTrace, request: SignInRequest, err: unknown): Promise<void> {
    if (err instanceof ApiError && err.def.key === 'otp_empty') return;
    const account = trace.account;
    const target = account ? accountRef(account) : undefined;
    const locked = err instanceof ApiError && err.errData?.locked === true;
    await quietly(async () => {
      if (err instanceof ApiError && err.def.key === 'otp_failed' && account) {
        await audit.record({
          realmId,
          actor: null,
          action: 'signin.otp',
          target,
          result: 'fail',
          request,
          detail: { method, reason: locked && !trace.admitted ? 'throttled' : 'otp_failed' },
        });
      } else {
        let reason = reasonOf(err);
        if (locked && !trace.admitted) reason = 'throttled';
        else if (reason === 'bad_credentials' && !account && trace.admitted) reason = 'unknown_account';
        await audit.record({ realmId, actor: null, action: `signin.${method}`, target, result: 'fail', request, detail: { method, reason } });
      }
      const retryAfter = Number(err instanceof ApiError ? err.errData?.retryAfter : 0);
      if (locked && trace.admitted && retryAfter * 1000 >= (trace.lockMs ?? LOCK_MS)) {
        await audit.record({ realmId, actor: null, action: 'signin.lock', target, result: 'ok', request, detail: { method, retryAfter } });
      }
    });
  }

  /** The one-time password was checked and right (the password form and code sign-ins). `trx`: the sign-in's own. */
  async function secondFactorPassed(method: SignInMethod, account: Account, request: SignInRequest, trx?: Db): Promise<void> {
    await audit.record(
      {
        realmId: account.realm_id,
        actor: actorRef(account),
        action: 'signin.otp',
        target: accountRef(account),
        result: 'ok',
        request,
        detail: { method },
      },
      trx,
    );
  }

  /** A code went out (or, for an address no account has, was made and kept undelivered). */
  async function codeSent(
    realmId: string,
    account: Account | undefined,
    request: SignInRequest,
    detail: { channel: 'sms' | 'email'; purpose: string },
  ): Promise<void> {
    await audit.record({
      realmId,
      actor: null,
      action: 'code.sent',
      target: account ? accountRef(account) : undefined,
      result: 'ok',
      request,
      detail: { ...detail, delivered: Boolean(account) || detail.purpose === 'register' },
    });
  }

  /** An account event where the account acted on itself: password.changed, password.reset, registration, activation. */
  async function own(
    action: string,
    account: Pick<Account, 'id' | 'username' | 'realm_id'>,
    request: SignInRequest | undefined,
    detail: Record<string, string> = {},
    trx?: Db,
  ) {
    await audit.record({ realmId: account.realm_id, actor: actorRef(account), action, target: accountRef(account), result: 'ok', request, detail }, trx);
  }

  /** A self-service flow (registration, recovery) that failed; no account is named. */
  async function flowFailed(action: string, realmId: string, request: SignInRequest, err: unknown, detail: Record<string, string> = {}): Promise<void> {
    await quietly(() => audit.record({ realmId, actor: null, action, result: 'fail', request, detail: { ...detail, reason: reasonOf(err) } }));
  }

  return { succeeded, failed, secondFactorPassed, codeSent, own, flowFailed };
}

export type SignInEvents = ReturnType<typeof createSignInEvents>;
