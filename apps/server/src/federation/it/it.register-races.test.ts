/**
 * Registration codes in a realm behind an IT backend (issue 14): the backend sends the SMS
 * code and checks it with the registration, and umbo holds the limits of its own codes in
 * front of it (code-limits.ts, as for sign-in codes, it.races.test.ts) whatever the backend
 * does: many requests for one number at once send one code (a new one after 60 s), one address
 * gets 30 a day (20 an hour, the registration limit, come first), and a code takes 5 wrong
 * tries however many come at once — never a 500, never an account.
 */
process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';

import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import { as, captcha, smsCode } from '../../test/kit.js';
import { accountsOf, itGroup, itRealm, startReference, type RefBackend } from './it.testkit.js';

let ref: RefBackend;
// the backend's clock is the running suite's fake clock, as a real one would be the time umbo signs with
let clockNow = Date.now;
beforeAll(async () => {
  ref = await startReference({ nowMs: () => clockNow() });
});
afterAll(() => ref.close());

const mobile = () => `137${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const PASSWORD = 'Backend-Pass-1';
const DAY = 86_400_000;
const outcome = (r: { status: number; body: { code: number } }) => `${r.status} ${r.body.code}`;
const count = (outcomes: string[]) => outcomes.reduce<Record<string, number>>((m, o) => ({ ...m, [o]: (m[o] ?? 0) + 1 }), {});

/** What the backend was asked for these numbers (E.164) at `path`. */
async function askedFor(path: string, numbers: string[]) {
  const wanted = new Set(numbers.map((n) => `+86${n}`));
  return (await ref.requests()).filter((r) => r.path === `/it${path}` && wanted.has(String(r.fields.phone)));
}

const registrationCode = async (h: Harness, realmId: string, national: string, ip: string) =>
  as(h).post('/api/users/auth/sms-code', { realm_id: realmId, mobile: national, purpose: 'register', ...(await captcha(h, realmId)) }, { ip });

describeBothDbs('IT-interface registration codes: limits held by umbo', (h) => {
  beforeEach(() => {
    clockNow = () => h().clock.now();
  });

  it('A-33 40 parallel registration-code requests for one number: one reaches the backend, the rest 1006 resend_too_soon', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port));
    const national = mobile();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => registrationCode(h(), realmId, national, `10.90.0.${i + 1}`)));
    expect(count(answers.map(outcome))).toEqual({ '200 0': 1, '429 1006': 39 });
    expect(answers.filter((r) => r.status === 429).every((r) => r.body.errData?.reason === 'resend_too_soon')).toBe(true);
    expect(await askedFor('/verify-code', [national])).toHaveLength(1);
    // after the documented 60 s the next code may go
    h().clock.advance(60_000);
    expect(outcome(await registrationCode(h(), realmId, national, '10.90.1.1'))).toBe('200 0');
  });

  it('A-33 one address asking registration codes for 40 numbers at once, twice an hour apart: 20 an hour, 30 a day reach the backend', async () => {
    // the caps count per UTC day: start the story early in a day of the fake clock
    h().clock.set((Math.floor(h().clock.now() / DAY) + 1) * DAY + 3_600_000);
    const realmId = await itRealm(h(), itGroup('default', ref.port));
    const burst = async () => {
      const numbers = Array.from({ length: 40 }, () => mobile());
      const answers = await Promise.all(numbers.map((n) => registrationCode(h(), realmId, n, '10.91.0.7')));
      const reasons = answers.filter((r) => r.status === 429).map((r) => String(r.body.errData?.reason));
      return { outcomes: count(answers.map(outcome)), reasons: count(reasons), sent: (await askedFor('/verify-code', numbers)).length };
    };
    expect(await burst()).toEqual({ outcomes: { '200 0': 20, '429 1006': 20 }, reasons: { registration: 20 }, sent: 20 });
    h().clock.advance(3_600_000);
    // the next hour's 20 meet the day's 30 per address: 10 go
    expect(await burst()).toEqual({ outcomes: { '200 0': 10, '429 1006': 30 }, reasons: { registration: 20, daily_cap: 10 }, sent: 10 });
  });

  it('A-33: a registration code takes at most 5 wrong tries, even 40 at once; then the right code is refused too and no account is made', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port));
    const national = mobile();
    const { serialNo } = await smsCode(h(), national, 'register', realmId);
    const { code } = await ref.lastCode(`+86${national}`);
    const wrongCodes = Array.from({ length: 40 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const register = (c: string, ip: string) =>
      as(h()).post('/api/users/auth/register/sms', { realm_id: realmId, mobile: national, code: c, serialNo, password: PASSWORD }, { ip });
    const answers = await Promise.all(wrongCodes.map((c, i) => register(c, `10.92.0.${i + 1}`)));
    expect(answers.map(outcome)).toEqual(wrongCodes.map(() => '400 4006'));
    expect(outcome(await register(code, '10.92.1.1'))).toBe('400 4006');
    // umbo asked the backend 5 times only, whatever the backend's own limit
    expect((await askedFor('/register', [national])).filter((r) => r.fields.serialNo === serialNo)).toHaveLength(5);
    expect(await accountsOf(h(), realmId)).toEqual([]);
  });

  it('a right registration code after 4 wrong ones still registers (a right code is not a spent try)', async () => {
    const realmId = await itRealm(h(), itGroup('default', ref.port));
    const national = mobile();
    const { serialNo } = await smsCode(h(), national, 'register', realmId);
    const { code } = await ref.lastCode(`+86${national}`);
    const register = (c: string) =>
      as(h()).post('/api/users/auth/register/sms', { realm_id: realmId, mobile: national, code: c, serialNo, password: PASSWORD });
    for (let i = 1; i <= 4; i++) expect(outcome(await register(String((Number(code) + i) % 1_000_000).padStart(6, '0')))).toBe('400 4006');
    const done = await register(code);
    expect(outcome(done)).toBe('200 0');
    expect((await accountsOf(h(), realmId)).map((a) => a.id)).toEqual([done.body.data.userId]);
  });
});
