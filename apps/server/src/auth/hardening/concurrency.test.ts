/**
 * Issue 8, defects 1–3: guesses that arrive all at once (SECURITY.md ).
 * Hundreds of parallel requests against the real app, on SQLite, PostgreSQL and Redis:
 * every guess must be reserved before it is checked, so only the budget is ever checked and
 * the right answer that follows is refused.
 */
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import {
  as,
  captcha,
  codeAt,
  createPerson,
  createRealm,
  enableOtp,
  lastCode,
  randomIp,
  randomMobile,
  randomName,
  signIn,
  smsCode,
  tokenFor,
  type Answer,
} from '../../test/kit.js';
import { passwordWork } from '../passwords.js';
import { THROTTLE_DEFAULTS } from '../throttle/defaults.js';

const PREFIX = `umbo-test:${crypto.randomBytes(6).toString('hex')}:`;
const REDIS_URL = `redis://127.0.0.1:6379/0?keyPrefix=${PREFIX}`;

/** A captcha answer per request: each image answers one try (SPEC §5). Issued from many addresses. */
async function captchas(h: Harness, realmId: string, n: number) {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const c = await h.ctx.services.captcha.issue(realmId, randomIp());
      return { captcha: c.answer, serialNo: c.serialNo };
    }),
  );
}

async function burst(h: Harness, realmId: string, bodies: object[], url = '/api/users/auth/login', ip?: () => string): Promise<Answer[]> {
  const answers = await captchas(h, realmId, bodies.length);
  return Promise.all(bodies.map((b, i) => as(h).post(url, { realm_id: realmId, ...b, ...answers[i] }, { ip: ip?.() ?? randomIp() })));
}

for (const env of [{}, { REDIS_URL }] as Record<string, string>[]) {
  describeBothDbs(
    `issue 8: parallel guesses${env.REDIS_URL ? ' (Redis)' : ''}`,
    (h) => {
      it('A-31 300 parallel wrong passwords for one account: at most 4 are checked, then the right one is refused', async () => {
        const realm = await createRealm(h());
        const a = await createPerson(h(), { realmId: realm });
        const before = passwordWork.verifications;
        const answers = await burst(
          h(),
          realm,
          Array.from({ length: 300 }, (_, i) => ({ username: a.username, password: `Wrong-${i}-Pass` })),
        );
        const checked = passwordWork.verifications - before;
        expect(checked).toBeGreaterThanOrEqual(1);
        expect(checked).toBeLessThanOrEqual(THROTTLE_DEFAULTS.account.freeFailures + 1);
        for (const r of answers) expect(r.body).toMatchObject({ result: 'fail', code: 1010, error: 'bad_credentials' });
        const right = await signIn(h(), a, { ip: randomIp() });
        expect(right.body).toMatchObject({ code: 1010, errData: { locked: true } });
      });

      it('A-31 150 parallel guesses from one address at many names: at most 21 are checked', async () => {
        const realm = await createRealm(h());
        const ip = randomIp();
        const before = passwordWork.verifications;
        await burst(
          h(),
          realm,
          Array.from({ length: 150 }, () => ({ username: randomName('spray'), password: 'Spray-Pass-1' })),
          undefined,
          () => ip,
        );
        expect(passwordWork.verifications - before).toBeLessThanOrEqual(THROTTLE_DEFAULTS.ip.freeFailures + 1);
        const a = await createPerson(h(), { realmId: realm });
        expect((await signIn(h(), a, { ip })).body).toMatchObject({ code: 1010, errData: { locked: true } });
        expect((await signIn(h(), a)).status).toBe(200);
      });

      it("A-31 'after_failures': 200 parallel sign-ins without a captcha — 3 are checked, the rest need one", async () => {
        const realm = await createRealm(h(), { captchaPolicy: 'after_failures' });
        const a = await createPerson(h(), { realmId: realm });
        const before = passwordWork.verifications;
        const answers = await Promise.all(
          Array.from({ length: 200 }, (_, i) => as(h()).post('/api/users/auth/login', { realm_id: realm, username: a.username, password: `Wrong-${i}-Pass` })),
        );
        expect(passwordWork.verifications - before).toBe(3);
        expect(answers.filter((r) => r.body.code === 4005)).toHaveLength(197);
      });

      it('A-31 A-32 the OTP step of SMS sign-in passes the password lock: a locked account is refused with the right code and OTP', async () => {
        const mobile = `+86${randomMobile()}`;
        const a = await createPerson(h(), { phone: mobile });
        const { secret } = await enableOtp(h(), await tokenFor(h(), a), a.password);
        // ten wrong passwords, waiting out each delay: the account is locked for 15 minutes
        for (let i = 0; i < 10; i++) {
          const res = await signIn(h(), { ...a, password: `Wrong-${i}-Pass` }, { ip: randomIp() });
          if (i < 9) h().clock.advance(((res.body.errData?.retryAfter as number | undefined) ?? 0) * 1000);
        }
        expect((await signIn(h(), a)).body).toMatchObject({ code: 1010, errData: { locked: true } });
        const { serialNo } = await smsCode(h(), mobile, 'login');
        const code = await lastCode(h(), mobile);
        const res = await as(h()).post('/api/users/auth/login/sms', { mobile, code, serialNo, otp: codeAt(h(), secret) });
        expect(res.body).toMatchObject({ result: 'fail', code: 1502, errData: { locked: true } });
        expect(res.body.data).toBeUndefined();
      });

      it('A-32 300 parallel wrong OTPs with one valid SMS code: the right OTP after them is refused', async () => {
        const mobile = `+86${randomMobile()}`;
        const a = await createPerson(h(), { phone: mobile });
        const { secret } = await enableOtp(h(), await tokenFor(h(), a), a.password);
        const { serialNo } = await smsCode(h(), mobile, 'login');
        const code = await lastCode(h(), mobile);
        const right = codeAt(h(), secret);
        const wrong = Array.from({ length: 300 }, (_, i) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0'));
        const answers = await Promise.all(wrong.map((otp) => as(h()).post('/api/users/auth/login/sms', { mobile, code, serialNo, otp })));
        // every answer is a refused second factor or a spent code (both 400), never a session
        for (const r of answers) {
          expect(r.status).toBe(400);
          expect([1502, 4007]).toContain(r.body.code);
        }
        const after = await as(h()).post('/api/users/auth/login/sms', { mobile, code, serialNo, otp: right });
        expect(after.status).toBe(400);
        expect([1502, 4007]).toContain(after.body.code);
      });

      it('A-32 a few wrong OTPs spend the SMS code that opened the step (third wrong one)', async () => {
        const mobile = `+86${randomMobile()}`;
        const a = await createPerson(h(), { phone: mobile });
        const { secret } = await enableOtp(h(), await tokenFor(h(), a), a.password);
        const { serialNo } = await smsCode(h(), mobile, 'login');
        const code = await lastCode(h(), mobile);
        const right = codeAt(h(), secret);
        const bad = right === '000000' ? '111111' : '000000';
        for (let i = 0; i < 3; i++) {
          const res = await as(h()).post('/api/users/auth/login/sms', { mobile, code, serialNo, otp: bad });
          expect(res.body.code).toBe(1502);
        }
        const res = await as(h()).post('/api/users/auth/login/sms', { mobile, code, serialNo, otp: right });
        expect(res.body.code).toBe(4007);
      });

      it('A-33 a burst of 300 wrong SMS reset codes compares at most 5; the right code after it cannot reset', async () => {
        const mobile = `+86${randomMobile()}`;
        await createPerson(h(), { phone: mobile });
        const sent = await as(h()).post('/api/users/auth/sms-code', { mobile, purpose: 'retrieve', ...(await captcha(h())) });
        expect(sent.status).toBe(200);
        const serialNo = sent.body.data.serialNo as string;
        const code = await lastCode(h(), mobile);
        const guesses = Array.from({ length: 300 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
        const answers = await Promise.all(
          guesses.map((g) => as(h()).post('/api/users/auth/retrieve/sms', { mobile, code: g, serialNo, password: 'New-passw0rd-9' })),
        );
        expect(answers.filter((r) => r.body.code === 4006).length).toBeLessThanOrEqual(5);
        expect(answers.filter((r) => r.body.code === 4007).length).toBeGreaterThanOrEqual(295);
        const right = await as(h()).post('/api/users/auth/retrieve/sms', { mobile, code, serialNo, password: 'New-passw0rd-9' });
        expect(right.body.code).toBe(4007);
      });
    },
    env,
  );
}

afterAll(async () => {
  const redis = new Redis('redis://127.0.0.1:6379/0');
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});
