/**
 * Binding and unbinding the account's phone and email (SPEC §2 settings "binding"; issue 3).
 * A code goes to the NEW address and proves it is reachable; the current password proves it
 * is the account's owner asking, throttled like sign-in. 1205 when another account of
 * the realm has that address (the caller is signed in: DESIGN.md §5 lets it know). The
 * previous address hears of a change or removal (notify/security-notices.ts, ASVS 5.0 V6.3.7).
 */
import type { Locale } from '@umbo/contracts';
import { normaliseEmail, type Account, type AccountRepo } from '../accounts/accounts.repo.js';
import type { Reauth } from '../auth/throttle/reauth.js';
import type { NoticeMeta, SecurityNotices } from '../notify/security-notices.js';
import type { Clock } from '../platform/clock.js';
import { isUniqueViolation } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';

export type BindChannel = 'email' | 'sms';

/** The codes this needs (codes/ + notify/, adapted in binding.codes.ts). */
export interface BindCodes {
  /** Issues a code for `target` (bound to `subject`) and sends it there. */
  send(i: {
    realmId: string;
    channel: BindChannel;
    target: string;
    to: string;
    ip: string;
    locale: Locale;
    subject: string;
  }): Promise<{ serialNo: string; expiresAt: number; resendAt: number }>;
  /** Checks and consumes a code; answers its subject, or throws the SPEC §8 code (4004/4006/4007/5002). */
  verify(i: { realmId: string; channel: BindChannel; target: string; serialNo: string; code: string }): Promise<string>;
}

export interface BindTargetInput {
  channel: BindChannel;
  email?: string | undefined;
  mobile?: string | undefined;
  country?: string | undefined;
}

export interface BindingDeps {
  accounts: Pick<AccountRepo, 'findAccountById' | 'findAccountByEmail' | 'findAccountByPhone' | 'setAddress'>;
  reauth: Reauth;
  codes: BindCodes;
  notices: SecurityNotices;
  clock: Clock;
  /** E.164 form of a mobile number, undefined when invalid (accounts/phone.ts) */
  normaliseMobile(mobile: string, country?: string): string | undefined;
}

export function createBindingService(deps: BindingDeps) {
  const { accounts, reauth, codes, notices, clock } = deps;

  /** The normalised target (lower-case address or E.164) and the form to store and send to. */
  function targetOf(i: BindTargetInput): { target: string; display: string } {
    if (i.channel === 'email') {
      assertThat(i.email, 'INVALID_PARAMETER', { field: 'email', reason: 'validation.required' });
      const display = i.email.trim();
      return { target: normaliseEmail(display), display };
    }
    assertThat(i.mobile, 'INVALID_PARAMETER', { field: 'mobile', reason: 'validation.required' });
    const e164 = deps.normaliseMobile(i.mobile, i.country);
    assertThat(e164, 'INVALID_PARAMETER', { field: 'mobile', reason: 'validation.mobile' });
    return { target: e164, display: e164 };
  }

  const currentOf = (a: Account, channel: BindChannel) => (channel === 'email' ? a.email_norm : a.phone);

  /** The addresses as stored now (the request's `account` is from before the change). */
  async function addressesOf(a: Account): Promise<{ email: string | null; phone: string | null }> {
    const fresh = await accounts.findAccountById(a.realm_id, a.id);
    return { email: fresh?.email ?? null, phone: fresh?.phone ?? null };
  }
  const kindOf = (channel: BindChannel) => (channel === 'email' ? 'email' : 'phone');

  async function sendCode(account: Account, input: BindTargetInput & { password: string }, meta: { ip: string; locale: Locale }) {
    const { target, display } = targetOf(input);
    await reauth.confirmPassword(account, input.password, meta.ip);
    assertThat(currentOf(account, input.channel) !== target, 'INVALID_PARAMETER', { field: input.channel === 'email' ? 'email' : 'mobile', reason: 'same' });
    const holder =
      input.channel === 'email' ? await accounts.findAccountByEmail(account.realm_id, target) : await accounts.findAccountByPhone(account.realm_id, target);
    assertThat(!holder || holder.id === account.id, 'USER_EXISTS');
    return codes.send({ realmId: account.realm_id, channel: input.channel, target, to: display, ip: meta.ip, locale: meta.locale, subject: account.id });
  }

  async function bind(account: Account, input: BindTargetInput & { serialNo: string; code: string }, meta: NoticeMeta) {
    const { target, display } = targetOf(input);
    const subject = await codes.verify({ realmId: account.realm_id, channel: input.channel, target, serialNo: input.serialNo, code: input.code });
    // A code sent for another account's binding is not this account's proof.
    assertThat(subject === account.id, 'CODE_INVALID_ALT');
    try {
      await accounts.setAddress(account.realm_id, account.id, input.channel, input.channel === 'email' ? display : target, clock.now());
    } catch (err) {
      if (isUniqueViolation(err)) throw fail('USER_EXISTS');
      throw err;
    }
    // `account` still holds the old address: that is where the notice goes.
    notices.send(account, `${kindOf(input.channel)}_${currentOf(account, input.channel) ? 'changed' : 'bound'}`, meta);
    return addressesOf(account);
  }

  async function unbind(account: Account, input: { channel: BindChannel; password: string }, meta: NoticeMeta) {
    await reauth.confirmPassword(account, input.password, meta.ip);
    await accounts.setAddress(account.realm_id, account.id, input.channel, null, clock.now());
    if (currentOf(account, input.channel)) notices.send(account, `${kindOf(input.channel)}_unbound`, meta);
    return addressesOf(account);
  }

  return { sendCode, bind, unbind };
}

export type BindingService = ReturnType<typeof createBindingService>;
