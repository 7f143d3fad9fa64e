/**
 * Retrieving a forgotten password (SPEC §2 "retrieve by email / by SMS", "reset password";
 * issue 3; A-35). By email: a reset link carrying a 24-character code, which also works pasted
 * into /reset. By SMS: a code, then the new password. The answer is the same whether or
 * not the account exists, and the mail is sent after the answer (DESIGN.md §5). A reset
 * ends every session of the account, lifts its sign-in lock, signs nobody in, and is followed
 * by a security notice.
 */
import type { Account } from '../../accounts/accounts.repo.js';
import { assertAcceptablePassword } from '../../accounts/password-policy.js';
import { CODE_DEFAULTS, DAY_MS, MAIL_LINK_DEFAULTS } from '../../codes/defaults.js';
import { resetMail } from '../../notify/templates.js';
import { fail } from '../../platform/errors.js';
import { hashPassword } from '../passwords.js';
import type { FlowDeps, RequestMeta } from './deps.js';
import { emailTarget, phoneTarget } from './targets.js';

export function resetLink(publicUrl: string, realmId: string, code: string): string {
  // the configured PUBLIC_URL, never the request's Host or X-Forwarded-Host.
  return `${publicUrl}/reset?realm_id=${encodeURIComponent(realmId)}&code=${code}`;
}

export function createRecoveryService(d: FlowDeps) {
  /**
   * Every session of the account ends. A-35: the sign-in lock lifts at once (A-31: reset stays
   * usable while locked), and the owner is told (ASVS 5.0 V6.3.7) in case it was not them.
   */
  async function afterReset(account: Account, meta: RequestMeta): Promise<void> {
    await d.sessions.revokeAll(account);
    await d.throttle.clearAccount({ realmId: account.realm_id, username: account.username });
    d.notices.send(account, 'password_reset', meta);
  }

  /** Daily caps for reset mails, per address and per IP, like codes. */
  async function chargeResetMail(realmId: string, email: string, ip: string): Promise<void> {
    const now = d.clock.now();
    const perTarget = await d.store.hitCounter({ realmId, name: 'reset-mail-target', keyHash: d.secrets.hash('counter', email), windowMs: DAY_MS, now });
    const perIp = await d.store.hitCounter({ realmId, name: 'reset-mail-ip', keyHash: d.secrets.hash('counter', ip), windowMs: DAY_MS, now });
    if (perTarget > CODE_DEFAULTS.dailyCapPerTarget || perIp > CODE_DEFAULTS.dailyCapPerIp) throw fail('RATE_LIMITED', { reason: 'daily_cap' });
  }

  async function retrieveByEmail(realmId: string, input: { email: string; captcha?: string | undefined; serialNo?: string | undefined }, meta: RequestMeta) {
    const settings = await d.policy.settingsOf(realmId);
    // Issue 14: a realm behind an IT backend recovers passwords at the backend, not here.
    if (d.federation?.handles(settings)) throw fail('METHOD_DISABLED', { method: 'retrieve' });
    const email = emailTarget(settings, 'retrieve', input.email);
    await d.captcha.guardForm(realmId, settings.captchaPolicy, 'retrieve', { ...input, ip: meta.ip });
    await chargeResetMail(realmId, email, meta.ip);
    // Everything that depends on the account happens after the answer.
    d.notify.defer('reset-mail', async () => {
      const account = await d.accounts.findAccountByEmail(realmId, email);
      if (!account || account.disabled || !account.email) return;
      const { code } = await d.transact((trx) => d.mailLinks.create(realmId, 'reset', account.id, trx));
      const mail = resetMail(account.email, {
        locale: meta.locale,
        site: d.siteTitle,
        realm: realmId,
        username: account.username,
        link: resetLink(d.publicUrl, realmId, code),
        code,
        minutes: MAIL_LINK_DEFAULTS.resetTtlMs / 60_000,
        template: settings.resetEmailTpl,
      });
      await d.notify.sendMail(realmId, settings, mail);
    });
    return { accepted: true as const };
  }

  async function retrieveBySms(
    realmId: string,
    input: { mobile: string; country?: string | undefined; code: string; serialNo: string; password: string },
    meta: RequestMeta,
  ) {
    const settings = await d.policy.settingsOf(realmId);
    if (d.federation?.handles(settings)) throw fail('METHOD_DISABLED', { method: 'retrieve' });
    const phone = phoneTarget(settings, 'retrieve', input.mobile, input.country);
    assertAcceptablePassword(input.password, settings.passwordMinLength);
    await d.codes.verify({ realmId, purpose: 'retrieve', channel: 'sms', target: phone }, input);
    const account = await d.accounts.findAccountByPhone(realmId, phone);
    if (!account) throw fail('CODE_INVALID');
    const passwordHash = await hashPassword(input.password);
    await d.transact(async (trx) => {
      await d.accounts.setRecoveredPassword(realmId, account.id, passwordHash, d.clock.now(), false, trx);
      await d.signIns?.own('password.reset', account, meta, { method: 'sms' }, trx);
    });
    await afterReset(account, meta);
    return { accepted: true as const };
  }

  /** /reset: the 24-character code from the mail (link or pasted) and a new password. */
  async function resetByMailCode(realmId: string, input: { code: string; password: string }, meta: RequestMeta) {
    const settings = await d.policy.settingsOf(realmId);
    assertAcceptablePassword(input.password, settings.passwordMinLength);
    // Hash first: the transaction below stays short and holds no lock during argon2.
    const passwordHash = await hashPassword(input.password);
    const accountId = await d.transact(async (trx) => {
      const id = await d.mailLinks.consume(realmId, 'reset', input.code, trx);
      // Following the mail proves the mailbox, so a pending activation is done too.
      if (!(await d.accounts.setRecoveredPassword(realmId, id, passwordHash, d.clock.now(), true, trx))) throw fail('CODE_INVALID');
      const recovered = await d.accounts.findAccountById(realmId, id, trx);
      if (recovered) await d.signIns?.own('password.reset', recovered, meta, { method: 'email' }, trx);
      return id;
    });
    const account = await d.accounts.findAccountById(realmId, accountId);
    if (account) await afterReset(account, meta);
    return { accepted: true as const };
  }

  return { retrieveByEmail, retrieveBySms, resetByMailCode };
}

export type RecoveryService = ReturnType<typeof createRecoveryService>;
