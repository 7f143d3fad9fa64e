/**
 * Issue 10: the one-time-password step of a password sign-in needs no second captcha. A right
 * password without the OTP answers 1503 with errData.otpTicket (a wrong OTP 1502 with the
 * next one); the OTP step sends the password again with the ticket instead of a captcha.
 * The ticket is single use, bound to realm and account name, never stands for the password,
 * and every OTP guess still goes through the throttle (SECURITY.md ).
 */
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import { as, captcha, codeAt, createPerson, createRealm, enableOtp, randomIp, signIn, tokenFor, type Answer, type TestAccount } from '../../test/kit.js';

const PREFIX = `umbo-test:${crypto.randomBytes(6).toString('hex')}:`;
const REDIS_URL = `redis://127.0.0.1:6379/0?keyPrefix=${PREFIX}`;

/** The OTP step: password again, the ticket instead of a captcha. */
function otpStep(h: Harness, a: TestAccount, otpTicket: string, otp: string, patch: object = {}): Promise<Answer> {
  return as(h).post('/api/users/auth/login', { username: a.username, password: a.password, realm_id: a.realmId, otp, otpTicket, ...patch }, { ip: randomIp() });
}

async function withOtp(h: Harness) {
  const realmId = await createRealm(h);
  const a = await createPerson(h, { realmId });
  const { secret } = await enableOtp(h, await tokenFor(h, a), a.password);
  const first = await signIn(h, a);
  expect(first.body).toMatchObject({ code: 1503, msg: 'OTP cannot be empty', errData: { otpTicket: expect.any(String) } });
  return { a, secret, ticket: (first.body.errData as { otpTicket: string }).otpTicket };
}

for (const env of [{}, { REDIS_URL }] as Record<string, string>[]) {
  describeBothDbs(
    `issue 10: the OTP ticket${env.REDIS_URL ? ' (Redis)' : ''}`,
    (h) => {
      it('A-32 A-36 a right password without OTP answers 1503 with a ticket; password + ticket + OTP signs in without a second captcha, once', async () => {
        const { a, secret, ticket } = await withOtp(h());
        const res = await otpStep(h(), a, ticket, codeAt(h(), secret));
        expect(res.status).toBe(200);
        expect(res.body.data.token).toEqual(expect.any(String));
        // Single use: the same ticket again is refused like a spent captcha.
        expect((await otpStep(h(), a, ticket, codeAt(h(), secret, 1))).body).toMatchObject({ code: 4005 });
      });

      it('A-31 the ticket never replaces the password: a wrong password with it is 1010 and spends it', async () => {
        const { a, secret, ticket } = await withOtp(h());
        const wrong = await otpStep(h(), a, ticket, codeAt(h(), secret), { password: 'Not-the-password-1' });
        expect(wrong.body).toMatchObject({ code: 1010 });
        expect(wrong.body.errData?.otpTicket).toBeUndefined();
        expect((await otpStep(h(), a, ticket, codeAt(h(), secret))).body).toMatchObject({ code: 4005 });
      });

      it('A-31 a ticket answers only for its realm and account name; a made-up one is 4005', async () => {
        const { a, secret, ticket } = await withOtp(h());
        const other = await createPerson(h(), { realmId: a.realmId });
        expect((await otpStep(h(), other, ticket, codeAt(h(), secret))).body).toMatchObject({ code: 4005 });
        const second = (await signIn(h(), a)).body.errData as { otpTicket: string };
        expect((await otpStep(h(), { ...a, realmId: 'master' }, second.otpTicket, codeAt(h(), secret))).body).toMatchObject({ code: 4005 });
        expect((await otpStep(h(), a, 'x'.repeat(32), codeAt(h(), secret))).body).toMatchObject({ code: 4005 });
      });

      it('A-32 30 parallel OTP submissions with one ticket: one is checked, the others are 4005 — at most one sign-in', async () => {
        const { a, secret, ticket } = await withOtp(h());
        const right = codeAt(h(), secret);
        const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => otpStep(h(), a, ticket, i % 2 ? right : '000000')));
        const checked = answers.filter((r) => r.body.code !== 4005);
        expect(checked.length).toBe(1);
        expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
      });

      it('A-31 A-32 wrong OTPs with tickets are counted on the throttle; after 3 the next try needs a captcha again', async () => {
        const { a, secret, ticket } = await withOtp(h());
        let current = ticket;
        for (let i = 0; i < 3; i++) {
          const res = await otpStep(h(), a, current, '000000');
          expect(res.body).toMatchObject({ code: 1502, msg: 'OTP verification failed' });
          current = (res.body.errData as { otpTicket?: string } | undefined)?.otpTicket ?? '';
          expect(Boolean(current), `ticket after wrong OTP ${i + 1}`).toBe(i < 2);
        }
        // A fourth wrong OTP (through a captcha) is the account's 4th failure: the next try waits.
        expect((await signIn(h(), a, { otp: '000000' })).body).toMatchObject({ code: 1502 });
        const locked = await as(h()).post('/api/users/auth/login', {
          username: a.username,
          password: a.password,
          realm_id: a.realmId,
          otp: codeAt(h(), secret),
          ...(await captcha(h(), a.realmId)),
        });
        expect(locked.body).toMatchObject({ errData: { locked: true } });
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
