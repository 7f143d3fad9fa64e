/**
 * Sign-in by SMS and email code, the captcha in front of them, realm method/region rules,
 * and the ftoken hand-over (issue 3). A-33 (codes), A-47 (expiry by the injected clock).
 */
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import {
  ADMIN,
  as,
  captcha,
  codeAt,
  createPerson,
  createRealm,
  enableOtp,
  issueSession,
  lastCode,
  outboxFor,
  randomEmail,
  randomIp,
  randomMobile,
  setRealmSettings,
  smsCode,
  toNextStep,
} from '../../test/kit.js';

// Every flow once with codes in the database and once in Redis (the machine's, 127.0.0.1:6379).
const REDIS_URL = `redis://127.0.0.1:6379/0?keyPrefix=umbo-test:${crypto.randomBytes(6).toString('hex')}:`;

for (const env of [{}, { REDIS_URL }] as Record<string, string>[])
  describeBothDbs(
    `sign-in by code${'REDIS_URL' in env ? ' (Redis)' : ''}`,
    (h) => {
      const person = (realmId: string, f: { phone?: string; email?: string; activated?: boolean }) => createPerson(h(), { realmId, ...f });

      it('signs in with mobile + SMS code and gets a working session token', async () => {
        const mobile = randomMobile();
        const acct = await person('master', { phone: `+86${mobile}` });
        const { serialNo, res } = await smsCode(h(), mobile, 'login');
        expect(res.body.data).toEqual({ serialNo, expiresAt: h().clock.now() + 300_000, resendAt: h().clock.now() + 60_000 });
        const code = await lastCode(h(), `+86${mobile}`);
        const login = await as(h()).post('/api/users/auth/login/sms', { mobile, code, serialNo });
        expect(login.status).toBe(200);
        expect(login.body.data).toMatchObject({ userId: acct.id, realmId: 'master', forcePassword: false });
        expect((await as(h(), login.body.data.token).get('/api/perm/user/info')).status).toBe(200);
        // single use
        const again = await as(h()).post('/api/users/auth/login/sms', { mobile, code, serialNo });
        expect(again.body).toMatchObject({ result: 'fail', code: 4007 });
      });

      it('signs in with email + email code; a wrong email code is 5002', async () => {
        const email = randomEmail();
        const acct = await person('master', { email });
        const res = await as(h()).post('/api/users/auth/email-code', { email, purpose: 'login', ...(await captcha(h())) });
        expect(res.status).toBe(200);
        const serialNo = res.body.data.serialNo as string;
        const [mail] = await outboxFor(h(), email);
        expect(mail).toMatchObject({ channel: 'mail', subject: 'Your verification code for umbo' });
        const code = await lastCode(h(), email);
        const wrong = await as(h()).post('/api/users/auth/login/email', { email, code: code === '000000' ? '111111' : '000000', serialNo });
        expect(wrong).toEqual({
          status: 400,
          body: { result: 'fail', code: 5002, errno: 5002, error: 'email_code_wrong', msg: 'Incorrect verification code' },
        });
        const ok = await as(h()).post('/api/users/auth/login/email', { email: email.toUpperCase(), code, serialNo });
        expect(ok.body.data).toMatchObject({ userId: acct.id });
      });

      it('A-33 unknown numbers get the same answer and no message; their code never signs in', async () => {
        const known = randomMobile();
        await person('master', { phone: `+86${known}` });
        const unknown = randomMobile();
        const a = await smsCode(h(), known, 'login');
        const b = await smsCode(h(), unknown, 'login');
        expect(Object.keys(b.res.body.data)).toEqual(Object.keys(a.res.body.data));
        expect(b.res.status).toBe(a.res.status);
        expect(await outboxFor(h(), `+86${unknown}`)).toEqual([]);
        const tryUnknown = await as(h()).post('/api/users/auth/login/sms', { mobile: unknown, code: '123456', serialNo: b.serialNo });
        const tryKnownWrong = await as(h()).post('/api/users/auth/login/sms', { mobile: known, code: '000000', serialNo: a.serialNo });
        expect(tryUnknown.body).toEqual(tryKnownWrong.body);
        expect(tryUnknown.body).toMatchObject({ code: 4006 });
      });

      it('A-33 five wrong tries invalidate the code; a code is bound to its transaction and target', async () => {
        const x = randomMobile();
        const y = randomMobile();
        await person('master', { phone: `+86${x}` });
        await person('master', { phone: `+86${y}` });
        const tx = await smsCode(h(), x, 'login');
        const code = await lastCode(h(), `+86${x}`);
        const ty = await smsCode(h(), y, 'login');
        // X's code for Y, and X's code with Y's transaction: refused
        expect((await as(h()).post('/api/users/auth/login/sms', { mobile: y, code, serialNo: ty.serialNo })).body.code).toBe(4006);
        expect((await as(h()).post('/api/users/auth/login/sms', { mobile: x, code, serialNo: ty.serialNo })).body.code).toBe(4007);
        // that was one wrong try for X; four more lock it, and then even the right code fails
        for (let i = 0; i < 4; i++) {
          const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
          expect((await as(h()).post('/api/users/auth/login/sms', { mobile: x, code: wrong, serialNo: tx.serialNo })).body.code).toBe(4006);
        }
        expect((await as(h()).post('/api/users/auth/login/sms', { mobile: x, code, serialNo: tx.serialNo })).body.code).toBe(4007);
      });

      it('A-47 a code expires after 5 minutes of the injected clock (4004); resend waits 60 s (1006) and replaces the old code', async () => {
        const mobile = randomMobile();
        await person('master', { phone: `+86${mobile}` });
        const first = await smsCode(h(), mobile, 'login');
        const firstCode = await lastCode(h(), `+86${mobile}`);
        const tooSoon = await as(h()).post('/api/users/auth/sms-code', { mobile, purpose: 'login', ...(await captcha(h())) });
        expect(tooSoon.status).toBe(429);
        expect(tooSoon.body).toMatchObject({ code: 1006, errData: { reason: 'resend_too_soon' } });
        h().clock.advance(60_000);
        const second = await smsCode(h(), mobile, 'login');
        const secondCode = await lastCode(h(), `+86${mobile}`);
        // the resend replaced the first code: its transaction is not the live one (4007)
        expect(await as(h()).post('/api/users/auth/login/sms', { mobile, code: firstCode, serialNo: first.serialNo })).toMatchObject({
          status: 400,
          body: { code: 4007 },
        });
        h().clock.advance(300_000);
        expect((await as(h()).post('/api/users/auth/login/sms', { mobile, code: secondCode, serialNo: second.serialNo })).body).toMatchObject({
          code: 4004,
          error: 'code_expired',
        });
      });

      it('asking for a code needs a right captcha (4005); a captcha works once', async () => {
        const mobile = randomMobile();
        const c = await captcha(h());
        const wrong = await as(h()).post('/api/users/auth/sms-code', { mobile, purpose: 'login', captcha: 'ZZZZ', serialNo: c.serialNo });
        expect(wrong).toEqual({
          status: 400,
          body: { result: 'fail', code: 4005, errno: 4005, error: 'captcha_wrong', msg: 'Image verification code input error' },
        });
        // the failed try used the captcha up
        const late = await as(h()).post('/api/users/auth/sms-code', { mobile, purpose: 'login', ...c });
        expect(late.body.code).toBe(4005);
        // a missing answer is a wrong one: the form shows the captcha and a new image
        const missing = await as(h()).post('/api/users/auth/sms-code', { mobile, purpose: 'login' });
        expect(missing.body.code).toBe(4005);
      });

      it("a realm's methods and regions decide: off → 1014; other country codes are E.164-checked", async () => {
        const realm = await createRealm(h(), { backend_support_login_method: ['password'], backend_support_login_regions: ['86', '1'] });
        const off = await as(h()).post('/api/users/auth/sms-code', {
          realm_id: realm,
          mobile: randomMobile(),
          purpose: 'login',
          ...(await captcha(h(), realm)),
        });
        expect(off).toMatchObject({ status: 403, body: { code: 1014, error: 'method_disabled' } });
        expect((await as(h()).post('/api/users/auth/login/email', { realm_id: realm, email: randomEmail(), code: '123456', serialNo: 'x' })).body.code).toBe(
          1014,
        );
        await setRealmSettings(h(), realm, { backend_support_login_regions: ['86', '1'] });
        const us = await as(h()).post('/api/users/auth/sms-code', {
          realm_id: realm,
          mobile: '2015550123',
          country: '1',
          purpose: 'login',
          ...(await captcha(h(), realm)),
        });
        expect(us.status).toBe(200);
        const de = await as(h()).post('/api/users/auth/sms-code', {
          realm_id: realm,
          mobile: '15123456789',
          country: '49',
          purpose: 'login',
          ...(await captcha(h(), realm)),
        });
        expect(de.body).toMatchObject({ code: 1014 });
        const badUs = await as(h()).post('/api/users/auth/sms-code', {
          realm_id: realm,
          mobile: '555',
          country: '1',
          purpose: 'login',
          ...(await captcha(h(), realm)),
        });
        expect(badUs.body).toMatchObject({ code: 1009 });
        const badCn = await as(h()).post('/api/users/auth/sms-code', {
          realm_id: realm,
          mobile: '12345678901',
          purpose: 'login',
          ...(await captcha(h(), realm)),
        });
        expect(badCn.body).toMatchObject({ code: 1009, errData: { field: 'mobile' } });
        const options = await as(h()).get(`/api/users/auth/options?realm_id=${realm}`);
        expect(options.body.data).toMatchObject({
          loginMethods: ['password', 'sms', 'email', 'otp'],
          loginRegions: ['86', '1'],
          captchaPolicy: 'always',
          logo: '',
        });
      });

      it('a realm with the password method off refuses the password form (1014), before any account is looked at', async () => {
        const realm = await createRealm(h(), { backend_support_login_method: ['sms', 'email'] });
        const res = await as(h()).post('/api/users/auth/login', {
          realm_id: realm,
          username: 'nobody-here',
          password: 'whatever-1',
          ...(await captcha(h(), realm)),
        });
        expect(res).toMatchObject({ status: 403, body: { code: 1014, error: 'method_disabled', errData: { method: 'password' } } });
        await setRealmSettings(h(), realm, { backend_support_login_method: ['password'] });
        const on = await as(h()).post('/api/users/auth/login', {
          realm_id: realm,
          username: 'nobody-here',
          password: 'whatever-1',
          ...(await captcha(h(), realm)),
        });
        expect(on.body.code).toBe(1010);
      });

      it('an unactivated account proves its code, then hears 5007', async () => {
        const email = randomEmail();
        await person('master', { email, activated: false });
        const res = await as(h()).post('/api/users/auth/email-code', { email, purpose: 'login', ...(await captcha(h())) });
        const code = await lastCode(h(), email);
        const login = await as(h()).post('/api/users/auth/login/email', { email, code, serialNo: res.body.data.serialNo });
        expect(login).toMatchObject({ status: 403, body: { code: 5007 } });
      });

      it('A-32 with a one-time password on, a right code waits for it: 1503 costs no new code, 1502 neither; then single use', async () => {
        const mobile = randomMobile();
        const acct = await person('master', { phone: `+86${mobile}` });
        const { secret } = await enableOtp(h(), await issueSession(h(), acct), acct.password);
        const { serialNo } = await smsCode(h(), mobile, 'login');
        const code = await lastCode(h(), `+86${mobile}`);
        expect((await as(h()).post('/api/users/auth/login/sms', { mobile, code, serialNo })).body).toMatchObject({ code: 1503 });
        const wrongOtp = codeAt(h(), secret) === '000000' ? '111111' : '000000';
        expect((await as(h()).post('/api/users/auth/login/sms', { mobile, code, serialNo, otp: wrongOtp })).body).toMatchObject({ code: 1502 });
        // a wrong code still says wrong code before anything about the second factor
        expect((await as(h()).post('/api/users/auth/login/sms', { mobile, code: code === '000000' ? '111111' : '000000', serialNo })).body).toMatchObject({
          code: 4006,
        });
        const ok = await as(h()).post('/api/users/auth/login/sms', { mobile, code, serialNo, otp: codeAt(h(), secret) });
        expect(ok.body.data).toMatchObject({ userId: acct.id });
        toNextStep(h());
        expect((await as(h()).post('/api/users/auth/login/sms', { mobile, code, serialNo, otp: codeAt(h(), secret) })).body).toMatchObject({ code: 4007 });
      });

      it("captcha policy 'after_failures': the code, registration and recovery forms pass a few times per IP, then want a captcha (4005)", async () => {
        const realm = await createRealm(h(), { captchaPolicy: 'after_failures' });
        const ip = randomIp();
        const send = (extra: object = {}) =>
          as(h()).post('/api/users/auth/email-code', { realm_id: realm, email: randomEmail(), purpose: 'login', ...extra }, { ip });
        for (let i = 0; i < 3; i++) expect((await send()).status).toBe(200);
        expect((await send()).body).toMatchObject({ code: 4005 });
        expect((await send(await captcha(h(), realm))).status).toBe(200);
        // each form counts on its own; another IP starts afresh
        expect((await as(h()).post('/api/users/auth/retrieve/email', { realm_id: realm, email: randomEmail() }, { ip })).status).toBe(200);
        expect(
          (await as(h()).post('/api/users/auth/register/email', { realm_id: realm, email: randomEmail(), password: 'Str0ng-pass!' }, { ip: randomIp() }))
            .status,
        ).toBe(200);
        // 'always' (the master realm's default) wants one every time, and a missing one is 4005
        expect((await as(h()).post('/api/users/auth/email-code', { email: randomEmail(), purpose: 'login' }, { ip: randomIp() })).body).toMatchObject({
          code: 4005,
        });
        expect((await as(h()).post('/api/users/auth/retrieve/email', { email: randomEmail() }, { ip: randomIp() })).body).toMatchObject({ code: 4005 });
      });

      it('ftoken: issued to a signed-in account, exchanged once for a session; 4007 after, 4004 when late', async () => {
        // A session issued directly: this test is about the hand-over, not the password form.
        const admin = await h().ctx.repos.accounts.findAccountByUsername('master', ADMIN.username);
        const token = await issueSession(h(), { row: admin! });
        const issued = await as(h(), token).post('/api/users/auth/ftoken', {});
        expect(issued.status).toBe(200);
        const ftoken = issued.body.data.ftoken as string;
        expect(ftoken).toMatch(/^master\.[A-Za-z0-9]{40}$/);
        const first = await as(h()).post('/api/users/auth/login/ftoken', { ftoken });
        expect(first.status).toBe(200);
        expect(first.body.data.token).not.toBe(token);
        expect((await as(h()).post('/api/users/auth/login/ftoken', { ftoken })).body.code).toBe(4007);
        const late = (await as(h(), token).post('/api/users/auth/ftoken', {})).body.data.ftoken as string;
        h().clock.advance(120_001);
        expect((await as(h()).post('/api/users/auth/login/ftoken', { ftoken: late })).body.code).toBe(4004);
        expect((await as(h()).post('/api/users/auth/login/ftoken', { ftoken: 'master.nope' })).body.code).toBe(4006);
        expect((await as(h()).post('/api/users/auth/ftoken', {})).status).toBe(401);
      });
    },
    env,
  );
