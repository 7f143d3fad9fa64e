/**
 * Codes by SMS and email, and signing in with them (SPEC §2 "mobile SMS" sub-form; issue 3).
 * Asking for a code needs a captcha (so that nobody pumps SMS through us; under the realm's
 * 'after_failures' policy only after a few requests). A number or
 * address that no account has gets a code too — stored, never delivered — so the answers,
 * throttles and errors of sign-in and recovery do not reveal which accounts exist
 * (DESIGN.md §5). Registration is the one place that says 1205 (SPEC §8, A-34). A sign-in
 * code is spent once the one-time password (if any) is right, so 1503 costs no new code;
 * wrong one-time passwords count on the account's lock and cost the code tries (issue 8).
 */
import type { CodePurpose } from '@umbo/contracts';
import type { Account } from '../../accounts/accounts.repo.js';
import type { SignInMethod, SignInTrace } from '../../audit/sign-in-events.js';
import { countryOf } from '../../accounts/phone.js';
import { CODE_DEFAULTS } from '../../codes/defaults.js';
import type { IssuedCode } from '../../codes/codes.service.js';
import { fail } from '../../platform/errors.js';
import { codeMail, codeSms } from '../../notify/templates.js';
import type { FlowSettings } from '../../realms/realm-policy.js';
import type { FlowDeps, RequestMeta } from './deps.js';
import { chargeRegistration } from './registration.service.js';
import { completeSignIn } from './sign-in.js';
import { emailTarget, phoneTarget } from './targets.js';

const MINUTES = CODE_DEFAULTS.ttlMs / 60_000;

interface CaptchaInput {
  captcha?: string | undefined;
  serialNo?: string | undefined;
}

export function createCodeSignInService(d: FlowDeps) {
  async function existingFor(purpose: CodePurpose, realmId: string, account: Account | undefined, meta: RequestMeta): Promise<void> {
    if (purpose !== 'register') return;
    await chargeRegistration(d, realmId, meta.ip);
    if (account) throw fail('USER_EXISTS');
  }

  async function issueSmsCode(
    realmId: string,
    input: CaptchaInput & { mobile: string; country?: string | undefined; purpose: CodePurpose },
    meta: RequestMeta,
  ): Promise<IssuedCode> {
    const settings = await d.policy.settingsOf(realmId);
    const target = phoneTarget(settings, input.purpose, input.mobile, input.country);
    await d.captcha.guardForm(realmId, settings.captchaPolicy, 'code', { ...input, ip: meta.ip });
    if (d.federation?.handles(settings)) return federatedSmsCode(realmId, settings, target, input.purpose, meta);
    const account = await d.accounts.findAccountByPhone(realmId, target);
    await existingFor(input.purpose, realmId, account, meta);
    const issued = await d.codes.issue({ realmId, purpose: input.purpose, channel: 'sms', target }, { ip: meta.ip, subject: account?.id });
    await d.signIns?.codeSent(realmId, account, meta, { channel: 'sms', purpose: input.purpose });
    if (account || input.purpose === 'register') {
      const text = codeSms({ locale: meta.locale, realm: realmId, code: issued.code, minutes: MINUTES });
      d.notify.defer('sms-code', () => d.notify.sendSms(realmId, settings, { to: target, text, code: issued.code, purpose: input.purpose }));
    }
    return issued;
  }

  /**
   * Issue 14: in a realm behind an IT backend the backend sends and checks SMS codes; a
   * password is the backend's business, so recovery codes are not ours to send.
   */
  async function federatedSmsCode(realmId: string, settings: FlowSettings, target: string, purpose: CodePurpose, meta: RequestMeta): Promise<IssuedCode> {
    if (purpose === 'retrieve') throw fail('METHOD_DISABLED', { method: 'retrieve' });
    if (purpose === 'register') await chargeRegistration(d, realmId, meta.ip);
    const serialNo = await d.federation!.sendCode(realmId, settings, { e164: target, country: countryOf(target) }, purpose, meta.ip);
    const now = d.clock.now();
    return { code: '', serialNo, expiresAt: now + CODE_DEFAULTS.ttlMs, resendAt: now + CODE_DEFAULTS.resendAfterMs };
  }

  async function issueEmailCode(realmId: string, input: CaptchaInput & { email: string; purpose: CodePurpose }, meta: RequestMeta): Promise<IssuedCode> {
    const settings = await d.policy.settingsOf(realmId);
    // Issue 14: the IT interface has no e-mail codes; the realm's backend owns its accounts.
    if (d.federation?.handles(settings)) throw fail('METHOD_DISABLED', { method: 'email' });
    const target = emailTarget(settings, input.purpose, input.email);
    await d.captcha.guardForm(realmId, settings.captchaPolicy, 'code', { ...input, ip: meta.ip });
    const account = await d.accounts.findAccountByEmail(realmId, target);
    await existingFor(input.purpose, realmId, account, meta);
    const issued = await d.codes.issue({ realmId, purpose: input.purpose, channel: 'email', target }, { ip: meta.ip, subject: account?.id });
    await d.signIns?.codeSent(realmId, account, meta, { channel: 'email', purpose: input.purpose });
    if (account || input.purpose === 'register') {
      // Issue 8: to the address the account has, never to a look-alike that normalised onto it.
      const mail = codeMail(account?.email ?? input.email.trim(), {
        locale: meta.locale,
        site: d.siteTitle,
        realm: realmId,
        code: issued.code,
        minutes: MINUTES,
      });
      d.notify.defer('email-code', () => d.notify.sendMail(realmId, settings, mail));
    }
    return issued;
  }

  /** Runs a code sign-in, recording its failure in the audit trail (its success is recorded by completeSignIn). */
  async function traced<T>(method: SignInMethod, realmId: string, meta: RequestMeta, work: (trace: SignInTrace) => Promise<T>): Promise<T> {
    const trace: SignInTrace = {};
    try {
      return await work(trace);
    } catch (err) {
      await d.signIns?.failed(method, realmId, trace, meta, err);
      throw err;
    }
  }

  async function loginBySms(
    realmId: string,
    input: { mobile: string; country?: string | undefined; code: string; serialNo: string; otp?: string | undefined },
    meta: RequestMeta,
  ) {
    return traced('sms', realmId, meta, (trace) => smsSignIn(realmId, input, meta, trace));
  }

  async function loginByEmail(realmId: string, input: { email: string; code: string; serialNo: string; otp?: string | undefined }, meta: RequestMeta) {
    return traced('email', realmId, meta, (trace) => emailSignIn(realmId, input, meta, trace));
  }

  async function smsSignIn(
    realmId: string,
    input: { mobile: string; country?: string | undefined; code: string; serialNo: string; otp?: string | undefined },
    meta: RequestMeta,
    trace: SignInTrace,
  ) {
    const settings = await d.policy.settingsOf(realmId);
    const target = phoneTarget(settings, 'login', input.mobile, input.country);
    if (d.federation?.handles(settings)) {
      const shadow = await d.federation.codeSignIn(realmId, settings, { e164: target, country: countryOf(target) }, input.code, input.serialNo);
      if (!shadow) throw fail('CODE_INVALID');
      trace.account = shadow;
      return completeSignIn(d, shadow, { ...meta, method: 'sms', otp: input.otp, settings });
    }
    const key = { realmId, purpose: 'login', channel: 'sms', target } as const;
    await d.codes.verify(key, input, { keep: true });
    const account = await d.accounts.findAccountByPhone(realmId, target);
    if (!account) throw fail('CODE_INVALID');
    trace.account = account;
    return completeSignIn(d, account, {
      ...meta,
      method: 'sms',
      otp: input.otp,
      settings,
      onWrongSecondFactor: () => d.codes.spendForWrongSecondFactor(key, input.serialNo),
      afterSecondFactor: () => d.codes.verify(key, input),
    });
  }

  async function emailSignIn(
    realmId: string,
    input: { email: string; code: string; serialNo: string; otp?: string | undefined },
    meta: RequestMeta,
    trace: SignInTrace,
  ) {
    const settings = await d.policy.settingsOf(realmId);
    const target = emailTarget(settings, 'login', input.email);
    const key = { realmId, purpose: 'login', channel: 'email', target } as const;
    await d.codes.verify(key, input, { keep: true });
    const account = await d.accounts.findAccountByEmail(realmId, target);
    if (!account) throw fail('EMAIL_CODE_WRONG');
    trace.account = account;
    return completeSignIn(d, account, {
      ...meta,
      method: 'email',
      otp: input.otp,
      settings,
      onWrongSecondFactor: () => d.codes.spendForWrongSecondFactor(key, input.serialNo),
      afterSecondFactor: () => d.codes.verify(key, input),
    });
  }

  return { issueSmsCode, issueEmailCode, loginBySms, loginByEmail };
}

export type CodeSignInService = ReturnType<typeof createCodeSignInService>;
