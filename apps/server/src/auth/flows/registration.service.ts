/**
 * Registration by email (with activation when the realm's needActive is on: a 24-character
 * code in a link valid 24 hours, SPEC §4/§5) and by SMS code; activation (issue 3).
 * An existing account answers 1205 as SPEC §8 requires, so attempts are rate-limited per IP
 * . The account and its activation code are written in one transaction: a fault
 * in between leaves no half-registered account; the unique indexes decide races.
 */
import { normaliseEmail, type Account, type NewPerson } from '../../accounts/accounts.repo.js';
import { assertAcceptablePassword } from '../../accounts/password-policy.js';
import { countryOf } from '../../accounts/phone.js';
import { CODE_DEFAULTS, DAY_MS, REGISTRATION_DEFAULTS } from '../../codes/defaults.js';
import { activationMail } from '../../notify/templates.js';
import { isUniqueViolation, type Db } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { assertMethod } from '../../realms/realm-policy.js';
import { hashPassword } from '../passwords.js';
import type { FlowDeps, RequestMeta } from './deps.js';
import { phoneTarget } from './targets.js';

/** Counts one registration attempt of an IP; over the limit → 1006. */
export async function chargeRegistration(d: Pick<FlowDeps, 'store' | 'secrets' | 'clock'>, realmId: string, ip: string): Promise<void> {
  const n = await d.store.hitCounter({
    realmId,
    name: 'register-ip',
    keyHash: d.secrets.hash('counter', ip),
    windowMs: REGISTRATION_DEFAULTS.windowMs,
    now: d.clock.now(),
  });
  if (n > REGISTRATION_DEFAULTS.perIpPerHour) throw fail('RATE_LIMITED', { reason: 'registration' });
}

export function activationLink(publicUrl: string, realmId: string, code: string): string {
  // links are built from the configured PUBLIC_URL, never from the request's Host.
  return `${publicUrl}/user/register-result?realm_id=${encodeURIComponent(realmId)}&code=${code}`;
}

export function createRegistrationService(d: FlowDeps) {
  /** Inserts the account (and what must exist with it) or answers 1205. */
  async function insertOrExists(person: NewPerson, within?: (account: Account, trx: Db) => Promise<void>): Promise<Account> {
    try {
      return await d.transact(async (trx) => {
        const account = await d.accounts.insertPerson(person, trx);
        await within?.(account, trx);
        return account;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw fail('USER_EXISTS');
      throw err;
    }
  }

  async function assertFree(realmId: string, username: string, found: unknown): Promise<void> {
    if (found || (await d.accounts.findAccountByUsername(realmId, username))) throw fail('USER_EXISTS');
  }

  /** A failed registration is recorded without any name or address typed in (issue 11). */
  async function traced<T>(realmId: string, meta: RequestMeta, method: 'email' | 'sms', work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      await d.signIns?.flowFailed('registration', realmId, meta, err, { method });
      throw err;
    }
  }

  async function registerByEmail(
    realmId: string,
    input: { email: string; password: string; username?: string | undefined; captcha?: string | undefined; serialNo?: string | undefined },
    meta: RequestMeta,
  ) {
    return traced(realmId, meta, 'email', () => emailRegistration(realmId, input, meta));
  }

  async function registerBySms(
    realmId: string,
    input: { mobile: string; country?: string | undefined; code: string; serialNo: string; password: string; username?: string | undefined },
    meta: RequestMeta,
  ) {
    return traced(realmId, meta, 'sms', () => smsRegistration(realmId, input, meta));
  }

  async function emailRegistration(
    realmId: string,
    input: { email: string; password: string; username?: string | undefined; captcha?: string | undefined; serialNo?: string | undefined },
    meta: RequestMeta,
  ) {
    const settings = await d.policy.settingsOf(realmId);
    assertMethod(settings, 'backend_support_regist_method', 'email');
    await chargeRegistration(d, realmId, meta.ip);
    await d.captcha.guardForm(realmId, settings.captchaPolicy, 'register', { ...input, ip: meta.ip });
    assertAcceptablePassword(input.password, settings.passwordMinLength);
    const email = input.email.trim();
    if (d.federation?.handles(settings)) {
      // Issue 14: the backend registers (and activates, if it wants to); we keep the shadow account.
      const shadow = await d.federation.register(realmId, settings, { username: input.username ?? email, password: input.password, email });
      return { userId: shadow.id, username: shadow.username, activationRequired: false };
    }
    // Without a user name, the address is the name: the password form then takes it as is.
    const username = input.username ?? email;
    await assertFree(realmId, username, await d.accounts.findAccountByEmail(realmId, email));
    const passwordHash = await hashPassword(input.password);
    let code = '';
    const account = await insertOrExists(
      { realmId, username, email, passwordHash, activated: !settings.needActive, now: d.clock.now() },
      async (created, trx) => {
        if (settings.needActive) code = (await d.mailLinks.create(realmId, 'activate', created.id, trx)).code;
        await d.signIns?.own('registration', created, meta, { method: 'email' }, trx);
      },
    );
    if (settings.needActive) {
      const mail = activationMail(email, {
        locale: meta.locale,
        site: d.siteTitle,
        realm: realmId,
        username,
        link: activationLink(d.publicUrl, realmId, code),
        code,
        template: settings.activeEmailTpl,
      });
      d.notify.defer('activation-mail', () => d.notify.sendMail(realmId, settings, mail));
    }
    return { userId: account.id, username, activationRequired: settings.needActive };
  }

  async function smsRegistration(
    realmId: string,
    input: { mobile: string; country?: string | undefined; code: string; serialNo: string; password: string; username?: string | undefined },
    meta: RequestMeta,
  ) {
    const settings = await d.policy.settingsOf(realmId);
    const phone = phoneTarget(settings, 'register', input.mobile, input.country);
    await chargeRegistration(d, realmId, meta.ip);
    assertAcceptablePassword(input.password, settings.passwordMinLength);
    if (d.federation?.handles(settings)) {
      // Issue 14: the code came from the backend (getVerifyCode) and goes back to it with the registration.
      const r = {
        username: input.username ?? phone,
        password: input.password,
        phone: { e164: phone, country: countryOf(phone) },
        code: input.code,
        serialNo: input.serialNo,
      };
      const shadow = await d.federation.register(realmId, settings, r);
      return { userId: shadow.id, username: shadow.username, activationRequired: false };
    }
    await d.codes.verify({ realmId, purpose: 'register', channel: 'sms', target: phone }, input);
    const username = input.username ?? phone;
    await assertFree(realmId, username, await d.accounts.findAccountByPhone(realmId, phone));
    const passwordHash = await hashPassword(input.password);
    const account = await insertOrExists(
      { realmId, username, phone, passwordHash, registArea: phone.startsWith('+86') ? '86' : '', now: d.clock.now() },
      (created, trx) => d.signIns?.own('registration', created, meta, { method: 'sms' }, trx) ?? Promise.resolve(),
    );
    return { userId: account.id, username, activationRequired: false };
  }

  /** Daily caps per address and per IP, and one mail a minute per address, like codes. */
  async function chargeActivationMail(realmId: string, email: string, ip: string): Promise<void> {
    const now = d.clock.now();
    // The one comparison form of addresses, so a look-alike spelling shares the same limits.
    const keyHash = d.secrets.hash('counter', normaliseEmail(email));
    const perMinute = await d.store.hitCounter({ realmId, name: 'activation-mail-minute', keyHash, windowMs: CODE_DEFAULTS.resendAfterMs, now });
    const perTarget = await d.store.hitCounter({ realmId, name: 'activation-mail-target', keyHash, windowMs: DAY_MS, now });
    const perIp = await d.store.hitCounter({ realmId, name: 'activation-mail-ip', keyHash: d.secrets.hash('counter', ip), windowMs: DAY_MS, now });
    if (perMinute > 1) throw fail('RATE_LIMITED', { reason: 'resend_too_soon', retryAfterMs: CODE_DEFAULTS.resendAfterMs });
    if (perTarget > CODE_DEFAULTS.dailyCapPerTarget || perIp > CODE_DEFAULTS.dailyCapPerIp) throw fail('RATE_LIMITED', { reason: 'daily_cap' });
  }

  /**
   * Another activation mail for an email registration not yet activated (issue 10). Answered
   * the same whether or not such an account exists (DESIGN.md §5); the mail leaves after the
   * answer, with a new link (the older one stops working).
   */
  async function resendActivation(realmId: string, input: { email: string; captcha?: string | undefined; serialNo?: string | undefined }, meta: RequestMeta) {
    const settings = await d.policy.settingsOf(realmId);
    assertMethod(settings, 'backend_support_regist_method', 'email');
    const email = input.email.trim();
    await d.captcha.guardForm(realmId, settings.captchaPolicy, 'register', { ...input, ip: meta.ip });
    await chargeActivationMail(realmId, email, meta.ip);
    d.notify.defer('activation-mail', async () => {
      const account = await d.accounts.findAccountByEmail(realmId, email);
      if (!settings.needActive || !account || account.activated || account.disabled || !account.email) return;
      const { code } = await d.transact((trx) => d.mailLinks.create(realmId, 'activate', account.id, trx));
      const mail = activationMail(account.email, {
        locale: meta.locale,
        site: d.siteTitle,
        realm: realmId,
        username: account.username,
        link: activationLink(d.publicUrl, realmId, code),
        code,
        template: settings.activeEmailTpl,
      });
      await d.notify.sendMail(realmId, settings, mail);
    });
    return { accepted: true as const };
  }

  /** Follows an activation link: single use, 24 h (4004 after), anything else 4006. */
  async function activate(realmId: string, code: string, meta?: Pick<RequestMeta, 'ip' | 'userAgent'>) {
    await d.policy.settingsOf(realmId);
    const accountId = await d.transact(async (trx) => {
      const id = await d.mailLinks.consume(realmId, 'activate', code, trx);
      if (!(await d.accounts.activateAccount(realmId, id, d.clock.now(), trx))) throw fail('CODE_INVALID');
      const activated = await d.accounts.findAccountById(realmId, id, trx);
      if (activated) await d.signIns?.own('activation', activated, meta, {}, trx);
      return id;
    });
    const account = await d.accounts.findAccountById(realmId, accountId);
    if (!account) throw fail('CODE_INVALID');
    return { username: account.username };
  }

  return { registerByEmail, registerBySms, resendActivation, activate };
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;
