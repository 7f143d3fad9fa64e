/**
 * Issue 8, defect 7 (SECURITY.md A-33 "never logged"): a full sign-up, activation, sign-in,
 * one-time-password, ftoken, reset, SMS and password-change run against the real app with its
 * log captured at the most verbose level; no password, code, token, secret or link value
 * it used may appear in any line. The redaction list lives in platform/redact.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, DB_TARGETS, type Harness } from '../../test/harness.js';
import { BACKEND_EXTRAS, BACKENDS, OAUTH } from '../../realms/realms.testkit.js';
import {
  ADMIN,
  as,
  codeAt,
  tokenFor,
  type Answer,
  enableOtp,
  lastCode,
  outboxFor,
  randomEmail,
  randomIp,
  randomMobile,
  settled,
  toNextStep,
} from '../../test/kit.js';

for (const target of DB_TARGETS) {
  describe(`issue 8: secrets never reach the log [${target.dialect}]`, () => {
    const lines: string[] = [];
    let h: Harness & { dispose(): Promise<void> };
    beforeAll(async () => {
      h = await createHarness(target, { LOG_LEVEL: 'trace' }, { logDestination: { write: (s: string) => void lines.push(s) } });
    });
    afterAll(async () => h?.dispose());

    /** The answer of a fresh captcha, recorded as a secret of the run. */
    const secrets: string[] = [];
    const keep = <T extends string>(s: T): T => (secrets.push(s), s);
    const captcha = async () => {
      const c = await h.ctx.services.captcha.issue('master', randomIp());
      return { captcha: keep(c.answer), serialNo: c.serialNo };
    };
    const page = (url: string) => as(h).get(url, { headers: { accept: 'text/html' } });
    const ok = async (p: Promise<Answer>) => {
      const res = await p;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };

    it('A-33 a whole sign-up, OTP, ftoken, reset and SMS run leaves no secret in the log', async () => {
      const email = randomEmail();
      const password = keep('First-Pass-913');
      await ok(as(h).post('/api/users/auth/register/email', { email, password, ...(await captcha()) }));
      const activation = keep(/register-result\?realm_id=master&code=([A-Za-z0-9]{24})/.exec((await outboxFor(h, email))[0]!.body)![1]!);
      await page(`/user/register-result?realm_id=master&code=${activation}`);
      await ok(as(h).post('/api/users/auth/activate', { code: activation }));

      const token = keep((await ok(as(h).post('/api/users/auth/login', { username: email, password, ...(await captcha()) }))).token);
      const { secret, recoveryCodes } = await enableOtp(h, token, password);
      keep(secret);
      recoveryCodes.forEach(keep);
      const otp = keep(codeAt(h, secret));
      const second = keep((await ok(as(h).post('/api/users/auth/login', { username: email, password, otp, ...(await captcha()) }))).token);
      toNextStep(h);
      // The OTP step: the password first, then the code with the ticket instead of a captcha.
      const step = await as(h).post('/api/users/auth/login', { username: email, password, ...(await captcha()) });
      expect(step.body.code).toBe(1503);
      const otpTicket = keep(step.body.errData!.otpTicket as string);
      keep((await ok(as(h).post('/api/users/auth/login', { username: email, password, otp: recoveryCodes[0], otpTicket }))).token);

      const ftoken = keep((await ok(as(h, second).post('/api/users/auth/ftoken'))).ftoken);
      await page(`/loginByFToken?ftoken=${encodeURIComponent(ftoken)}`);
      keep((await ok(as(h).post('/api/users/auth/login/ftoken', { ftoken }))).token);

      await ok(as(h).post('/api/users/auth/retrieve/email', { email, ...(await captcha()) }));
      const resetMail = (await outboxFor(h, email)).find((m) => m.body.includes('/reset?'))!;
      const reset = keep(/[?&]code=([A-Za-z0-9]{24})/.exec(resetMail.body)![1]!);
      await page(`/reset?realm_id=master&code=${reset}`);
      const newPassword = keep('Second-Pass-274');
      await ok(as(h).post('/api/users/auth/reset', { code: reset, password: newPassword }));

      const mobile = randomMobile();
      const sent = await ok(as(h).post('/api/users/auth/sms-code', { mobile, purpose: 'register', ...(await captcha()) }));
      const smsCode = keep(await lastCode(h, `+86${mobile}`));
      const smsPassword = keep('Sms-Pass-5521');
      await ok(as(h).post('/api/users/auth/register/sms', { mobile, code: smsCode, serialNo: sent.serialNo, password: smsPassword }));
      h.clock.advance(61_000);
      const login = await ok(as(h).post('/api/users/auth/sms-code', { mobile, purpose: 'login', ...(await captcha()) }));
      const loginCode = keep(await lastCode(h, `+86${mobile}`));
      const smsToken = keep((await ok(as(h).post('/api/users/auth/login/sms', { mobile, code: loginCode, serialNo: login.serialNo }))).token);
      const changed = keep('Third-Pass-8806');
      await ok(as(h, smsToken).post('/api/users/account/password', { oldPassword: smsPassword, newPassword: changed }));
      // a wrong guess and a bad request log their failure, with the values they carried
      await as(h).post('/api/users/auth/login', { username: email, password: keep('Wrong-Guess-4471'), ...(await captcha()) });
      await page(`/api/users/auth/options?realm_id=nope&code=${keep('QueryCode77')}&token=${keep('QueryToken88')}`);
      await settled(h);

      const log = lines.join('');
      expect(log).toContain('incoming request'); // the log was captured at all
      expect(log).toContain('[redacted]');
      const found = secrets.filter((s) => {
        // digits only: as a whole number, not inside a timestamp or a duration
        if (/^\d+$/.test(s)) return new RegExp(`(?<![0-9.])${s}(?![0-9])`).test(log);
        return log.includes(s) || log.includes(encodeURIComponent(s));
      });
      expect(found).toEqual([]);
    });

    it('A-33 administration (issue 11): passwords an administrator sets, CSV imports with passwords, realm secrets — none in the log', async () => {
      const admin = await tokenFor(h, ADMIN);
      const before = lines.length;
      const own: string[] = [];
      const mine = <T extends string>(s: T): T => (own.push(s), s);
      const accounts = '/api/users/realms/master/accounts';
      const created = await ok(as(h, admin).post(accounts, { username: `log_${randomMobile()}`, password: mine('Admin-Made-Pass-301') }));
      await ok(as(h, admin).post(`${accounts}/${created.id}/password`, { password: mine('Temp-Admin-Pass-302') }));
      const csv = `userName,email,phone,password\r\nlog_csv_${randomMobile()},,,${mine('Csv-Import-Pass-303')}\r\n`;
      for (const q of ['?dryRun=1', '']) await ok(as(h, admin).post(`${accounts}/import${q}`, csv, { headers: { 'content-type': 'text/csv' } }));
      const services = `${accounts}/${created.id}/services`;
      const service = await ok(as(h, admin).post(services, { subname: 'log.robot', password: mine('Service-Pass-304') }));
      await ok(as(h, admin).put(`${services}/${service.sub_id}/password`, { password: mine('Service-Pass-305') }));
      const backend = { ...BACKENDS.ecogloble, appSercet: mine('Eco-Secret-306') };
      const oauth = { ...OAUTH, clientSecret: mine('Oauth-Secret-307') };
      const email = { host: 'smtp.example.com', port: 587, user: 'mailer', password: mine('Smtp-Pass-308'), from: 'no-reply@example.com' };
      await ok(as(h, admin).patch('/api/users/realms/master/settings', { backend, ...BACKEND_EXTRAS, oauth, email }));
      await ok(as(h, admin).get('/api/users/realms/master/export'));
      await settled(h);

      const log = lines.slice(before).join('');
      expect(log).toContain('incoming request');
      expect(own.filter((s) => log.includes(s) || log.includes(encodeURIComponent(s)))).toEqual([]);
    });
  });
}
