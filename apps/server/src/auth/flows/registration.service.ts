/**
 * Registration by email (with activation when the realm's needActive is on: a 24-character
 * code in a link valid 24 hours, SPEC §4/§5) and by SMS code; activation (issue 3).
 * An existing account answers 1205 as SPEC §8 requires, so attempts are rate-limited per IP
 * . The account and its activation code are written in one transaction: a fault
 * in between leaves no half-registered account; the unique indexes decide races.
 */
import type { Insertable } from 'kysely';
import { normaliseUsername } from '../../accounts/accounts.repo.js';
import { REGISTRATION_DEFAULTS } from '../../codes/defaults.js';
import { newId } from '../../platform/crypto.js';
import { isUniqueViolation, type AccountTable, type Db } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { activationMail } from '../../notify/templates.js';
import { hashPassword } from '../passwords.js';
import type { FlowDeps, RequestMeta } from './deps.js';
import { assertMethod } from './realm-policy.js';
import { assertPasswordPolicy } from './sign-in.js';
import { normaliseEmail } from './flows.repo.js';
import { phoneTarget } from './targets.js';

/** Counts one registration attempt of an IP; over the limit → 1006. */
export async function chargeRegistration(d: Pick<FlowDeps, 'store' | 'secrets' | 'clock'>, realmId: string, ip: string): Promise<void> {
  const n = await d.store.hitCounter({ realmId, name: 'register-ip', keyHash: d.secrets.hash('counter', ip), windowMs: REGISTRATION_DEFAULTS.windowMs, now: d.clock.now() });
  if (n > REGISTRATION_DEFAULTS.perIpPerHour) throw fail('RATE_LIMITED', { reason: 'registration' });
}

export function activationLink(publicUrl: string, realmId: string, code: string): string {
  // links are built from the configured PUBLIC_URL, never from the request's Host.
  return `${publicUrl}/user/register-result?realm_id=${encodeURIComponent(realmId)}&code=${code}`;
}

function newAccountRow(realmId: string, now: number, f: { username: string; email?: string; phone?: string; passwordHash: string; activated: boolean; area: string }): Insertable<AccountTable> {
  return {
    id: newId(),
    realm_id: realmId,
    kind: 'person',
    owner_id: null,
    username: f.username,
    username_norm: normaliseUsername(f.username),
    email: f.email ?? null,
    email_norm: f.email ? normaliseEmail(f.email) : null,
    phone: f.phone ?? null,
    password_hash: f.passwordHash,
    avatar: '',
    disabled: 0,
    activated: f.activated ? 1 : 0,
    force_password: 0,
    regist_area: f.area,
    last_login_at: null,
    last_login_area: '',
    created_at: now,
    updated_at: now,
  };
}

export function createRegistrationService(d: FlowDeps) {
  /** Inserts the account (and what must exist with it) or answers 1205. */
  async function insertOrExists(row: Insertable<AccountTable>, within?: (trx: Db) => Promise<void>): Promise<void> {
    try {
      await d.db.transaction().execute(async (trx) => {
        await d.accounts.insertAccount(row, trx);
        await within?.(trx);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw fail('USER_EXISTS');
      throw err;
    }
  }

  async function assertFree(realmId: string, username: string, found: unknown): Promise<void> {
    if (found || (await d.accounts.findAccountByUsername(realmId, username))) throw fail('USER_EXISTS');
  }

  async function registerByEmail(realmId: string, input: { email: string; password: string; username?: string | undefined; captcha?: string | undefined; serialNo?: string | undefined }, meta: RequestMeta) {
    const settings = await d.policy.settingsOf(realmId);
    assertMethod(settings, 'backend_support_regist_method', 'email');
    await chargeRegistration(d, realmId, meta.ip);
    await d.captcha.guardForm(realmId, settings.captchaPolicy, 'register', { ...input, ip: meta.ip });
    assertPasswordPolicy(settings.passwordMinLength, input.password);
    const email = input.email.trim();
    // Without a user name, the address is the name: the password form then takes it as is.
    const username = input.username ?? email;
    await assertFree(realmId, username, await d.flows.findAccountByEmail(realmId, email));
    const passwordHash = await hashPassword(input.password);
    const row = newAccountRow(realmId, d.clock.now(), { username, email, passwordHash, activated: !settings.needActive, area: '' });
    let code = '';
    await insertOrExists(row, async (trx) => {
      if (settings.needActive) code = (await d.mailLinks.create(trx, realmId, 'activate', row.id)).code;
    });
    if (settings.needActive) {
      const mail = activationMail(email, { locale: meta.locale, site: d.siteTitle, realm: realmId, username, link: activationLink(d.publicUrl, realmId, code), code, template: settings.activeEmailTpl });
      d.notify.defer('activation-mail', () => d.notify.sendMail(realmId, settings, mail));
    }
    return { userId: row.id, username, activationRequired: settings.needActive };
  }

  async function registerBySms(realmId: string, input: { mobile: string; country?: string | undefined; code: string; serialNo: string; password: string; username?: string | undefined }, meta: RequestMeta) {
    const settings = await d.policy.settingsOf(realmId);
    const phone = phoneTarget(settings, 'register', input.mobile, input.country);
    await chargeRegistration(d, realmId, meta.ip);
    assertPasswordPolicy(settings.passwordMinLength, input.password);
    await d.codes.verify({ realmId, purpose: 'register', channel: 'sms', target: phone }, input);
    const username = input.username ?? phone;
    await assertFree(realmId, username, await d.flows.findAccountByPhone(realmId, phone));
    const passwordHash = await hashPassword(input.password);
    const row = newAccountRow(realmId, d.clock.now(), { username, phone, passwordHash, activated: true, area: phone.startsWith('+86') ? '86' : '' });
    await insertOrExists(row);
    return { userId: row.id, username, activationRequired: false };
  }

  /** Follows an activation link: single use, 24 h (4004 after), anything else 4006. */
  async function activate(realmId: string, code: string) {
    await d.policy.settingsOf(realmId);
    const accountId = await d.db.transaction().execute(async (trx) => {
      const id = await d.mailLinks.consume(trx, realmId, 'activate', code);
      if (!(await d.flows.activateAccount(realmId, id, d.clock.now(), trx))) throw fail('CODE_INVALID');
      return id;
    });
    const account = await d.accounts.findAccountById(realmId, accountId);
    if (!account) throw fail('CODE_INVALID');
    return { username: account.username };
  }

  return { registerByEmail, registerBySms, activate };
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;
