/**
 * Brute-force throttling of password sign-in (issue 3; ): per account name
 * and per IP, per realm, growing delays then a lock, answered as 1010 plus a notice that an
 * unknown name gets just the same. Database store on both databases, and the Redis store.
 */
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import { as, captcha, createPerson, createRealm, outboxFor, randomIp, randomName, signIn, type Answer, type TestAccount } from '../../test/kit.js';
import { THROTTLE_DEFAULTS, blockFor } from './defaults.js';

const PREFIX = `umbo-test:${crypto.randomBytes(6).toString('hex')}:`;
const REDIS_URL = `redis://127.0.0.1:6379/0?keyPrefix=${PREFIX}`;

/** `n` wrong passwords from `n` different addresses, waiting out each delay on the fake clock. */
async function failTimes(h: Harness, who: Pick<TestAccount, 'username' | 'realmId'>, n: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < n; i++) {
    const res = await signIn(h, { ...who, password: `Wrong-${i}-Password` }, { ip: randomIp() });
    answers.push(res);
    const wait = res.body.errData?.retryAfter;
    if (typeof wait === 'number' && i < n - 1) h.clock.advance(wait * 1000);
  }
  return answers;
}

for (const env of [{}, { REDIS_URL }] as Record<string, string>[]) {
  describeBothDbs(
    `sign-in throttle${env.REDIS_URL ? ' (Redis)' : ''}`,
    (h) => {
      it('the policy grows delays after 3 failures and locks from the 10th', () => {
        const p = THROTTLE_DEFAULTS.account;
        expect([1, 2, 3, 4, 5, 9, 10, 11, 12, 13].map((n) => blockFor(p, n) / 1000)).toEqual([0, 0, 0, 1, 2, 32, 900, 1800, 3600, 3600]);
      });

      it('A-31 10 failures for one account from 10 IPs → locked, the answer still generic 1010', async () => {
        const a = await createPerson(h());
        const answers = await failTimes(h(), a, 10);
        for (const res of answers) expect(res).toMatchObject({ status: 400, body: { result: 'fail', code: 1010, error: 'bad_credentials' } });
        expect(answers.slice(0, 3).map((r) => r.body.errData)).toEqual([undefined, undefined, undefined]);
        expect(answers[3]!.body.errData).toEqual({ locked: true, retryAfter: 1 });
        expect(answers[9]!.body.errData).toEqual({ locked: true, retryAfter: 900 });
        // the right password, from yet another address, is refused while the lock runs
        const right = await signIn(h(), a, { ip: randomIp() });
        expect(right.status).toBe(400);
        expect(right.body).toEqual({
          result: 'fail',
          code: 1010,
          errno: 1010,
          error: 'bad_credentials',
          msg: 'Incorrect account or password',
          errData: { locked: true, retryAfter: 900 },
        });
        expect(right.headers['retry-after']).toBe('900');
      });

      it('A-30 a locked account and an unknown name hit as often answer identically', async () => {
        const a = await createPerson(h());
        const ghost = { username: randomName('ghost'), realmId: 'master' };
        const real = await failTimes(h(), a, 10);
        const realLocked = await signIn(h(), a); // the right password, locked out
        const fake = await failTimes(h(), ghost, 10);
        const fakeLocked = await signIn(h(), { ...ghost, password: 'Anything-1' });
        expect(fake).toEqual(real);
        expect(fakeLocked).toEqual(realLocked);
        expect(fakeLocked.headers['retry-after']).toBe(realLocked.headers['retry-after']);
      });

      it('A-31 counters are per realm: the same user name in realm B is unaffected', async () => {
        const name = randomName();
        const realmB = await createRealm(h());
        const inA = await createPerson(h(), { username: name });
        const inB = await createPerson(h(), { username: name, realmId: realmB });
        await failTimes(h(), inA, 10);
        expect((await signIn(h(), inA)).body.errData).toMatchObject({ locked: true });
        expect((await signIn(h(), inB)).status).toBe(200);
      });

      it('A-47 the fake clock decides when the lock ends; success then clears the counter', async () => {
        const a = await createPerson(h());
        await failTimes(h(), a, 10);
        h().clock.advance(899_000);
        expect((await signIn(h(), a)).body.errData).toEqual({ locked: true, retryAfter: 1 });
        h().clock.advance(1_000);
        expect((await signIn(h(), a)).status).toBe(200);
        // forgotten: three fresh failures cost nothing again
        const after = await failTimes(h(), a, 3);
        expect(after.map((r) => r.body.errData)).toEqual([undefined, undefined, undefined]);
      });

      it('A-31 a blocked attempt is not counted and does not extend the lock', async () => {
        const a = await createPerson(h());
        await failTimes(h(), a, 10);
        for (let i = 0; i < 5; i++) await signIn(h(), { ...a, password: 'Still-Wrong-1' });
        h().clock.advance(900_000);
        expect((await signIn(h(), a)).status).toBe(200);
      });

      it('A-31 one address guessing many names is slowed down too', async () => {
        const ip = randomIp();
        const p = THROTTLE_DEFAULTS.ip;
        let last: Answer | undefined;
        for (let i = 0; i <= p.freeFailures; i++)
          last = await signIn(h(), { username: randomName('spray'), password: 'Spray-Pass-1', realmId: 'master' }, { ip });
        expect(last!.body.errData).toEqual({ locked: true, retryAfter: 1 });
        const a = await createPerson(h());
        expect((await signIn(h(), a, { ip })).body.errData).toEqual({ locked: true, retryAfter: 1 });
        expect((await signIn(h(), a)).status).toBe(200);
      });

      it('A-31 password recovery stays usable while sign-in is locked', async () => {
        const email = `${randomName()}@example.test`;
        const a = await createPerson(h(), { email });
        await failTimes(h(), a, 10);
        const res = await as(h()).post('/api/users/auth/retrieve/email', { email, ...(await captcha(h())) });
        expect(res.status).toBe(200);
        expect((await outboxFor(h(), email)).length).toBe(1);
        const row = await h().ctx.repos.accounts.findAccountById('master', a.id);
        expect(row).toMatchObject({ disabled: 0, password_hash: expect.any(String) });
      });

      if (env.REDIS_URL) {
        it('A-31 with REDIS_URL the counters live in Redis, keyed realm:{id}:throttle-…', async () => {
          const a = await createPerson(h());
          await failTimes(h(), a, 1);
          const redis = new Redis('redis://127.0.0.1:6379/0');
          try {
            const keys = await redis.keys(`${PREFIX}realm:master:throttle-*`);
            expect(keys.some((k) => k.includes('throttle-account:'))).toBe(true);
            expect(keys.some((k) => k.includes('throttle-ip:'))).toBe(true);
            expect(await h().dbh.db.selectFrom('login_throttle').selectAll().execute()).toEqual([]);
          } finally {
            redis.disconnect();
          }
        });
      }
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
