/**
 * Races of SMS-code sign-in in a realm behind an IT backend (issue 14), against the reference
 * backend on both databases: one code submitted by many sign-ins at once is spent once (A-32's
 * "parallel submissions of one code → exactly one success", applied to A-33's SMS codes), a
 * code takes 5 wrong tries however many come at once, and many code requests for one number
 * at once pass the documented resend limit (README: a new code after 60 s) only once — never
 * a 500, never a second shadow account. umbo holds these limits itself (code-limits.ts); the
 * reference backend, the operator's example, holds its own too (tested straight, signed).
 */
process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';

import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { as, captcha, setRealmSettings, smsCode } from '../../test/kit.js';
import { signRequest } from './signature.js';
import { accountsOf, APP_KEY, APP_SECRET, itGroup, itRealm, startReference, type RefBackend } from './it.testkit.js';

let ref: RefBackend;
// the backend's clock is the running suite's fake clock, as a real one would be the time umbo signs with
let clockNow = Date.now;
beforeAll(async () => {
  ref = await startReference({ nowMs: () => clockNow() });
});
afterAll(() => ref.close());

const uniq = () => Math.random().toString(36).slice(2, 10);
const mobile = () => `136${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const PASSWORD = 'Backend-Pass-1';
const outcome = (r: { status: number; body: { code: number } }) => `${r.status} ${r.body.code}`;

/** A signed call straight to the reference backend (what umbo sends, without umbo's own limits in front). */
async function backendCall(path: string, fields: Record<string, unknown>): Promise<{ code: number }> {
  const body = JSON.stringify({ realm: 'tenant-1', ...fields });
  const headers = signRequest({ appKey: APP_KEY, secret: APP_SECRET, method: 'POST', pathWithQuery: `/it${path}`, body, nowMs: clockNow() });
  const res = await fetch(`http://${ref.host}:${ref.port}/it${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
  return (await res.json()) as { code: number };
}

async function backendCode(phone: string): Promise<{ code: string; serialNo: string }> {
  expect((await backendCall('/verify-code', { phone, purpose: 'login' })).code).toBe(0);
  return ref.lastCode(phone);
}

// The reference backend is the operator's example: it must hold these by itself too.
it('the reference backend spends a code once under 50 parallel sign-ins with it', async () => {
  const phone = `+86${mobile()}`;
  await ref.addUser({ username: `direct${uniq()}`, password: PASSWORD, phone });
  const { code, serialNo } = await backendCode(phone);
  const answers = await Promise.all(Array.from({ length: 50 }, () => backendCall('/login-by-code', { phone, code, serialNo })));
  expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
  expect(answers.filter((a) => a.code !== 0).every((a) => a.code === 10)).toBe(true);
});

it('A-33: the reference backend kills a code after 5 wrong tries, even 30 at once', async () => {
  const phone = `+86${mobile()}`;
  await ref.addUser({ username: `direct${uniq()}`, password: PASSWORD, phone });
  const { code, serialNo } = await backendCode(phone);
  const wrong = Array.from({ length: 30 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
  const answers = await Promise.all(wrong.map((c) => backendCall('/login-by-code', { phone, code: c, serialNo })));
  expect(answers.map((a) => a.code)).toEqual(wrong.map(() => 10));
  expect((await backendCall('/login-by-code', { phone, code, serialNo })).code).toBe(10);
});

it('the reference backend still takes a right code after 4 wrong tries', async () => {
  const phone = `+86${mobile()}`;
  await ref.addUser({ username: `direct${uniq()}`, password: PASSWORD, phone });
  const { code, serialNo } = await backendCode(phone);
  for (let i = 1; i <= 4; i++)
    expect((await backendCall('/login-by-code', { phone, code: String((Number(code) + i) % 1_000_000).padStart(6, '0'), serialNo })).code).toBe(10);
  expect((await backendCall('/login-by-code', { phone, code, serialNo })).code).toBe(0);
});

describeBothDbs('IT-interface SMS-code races', (h) => {
  beforeEach(() => {
    clockNow = () => h().clock.now();
  });

  it('A-33: one code submitted by 50 parallel sign-ins → exactly one signed in, the rest 4006, one shadow account', async () => {
    const realmId = await itRealm(h(), itGroup('default', ref.port));
    const national = mobile();
    const user = await ref.addUser({ username: `race${uniq()}`, password: PASSWORD, phone: `+86${national}` });
    const { serialNo } = await smsCode(h(), national, 'login', realmId);
    const { code } = await ref.lastCode(`+86${national}`);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        as(h()).post('/api/users/auth/login/sms', { realm_id: realmId, mobile: national, code, serialNo }, { ip: `10.78.0.${i + 1}` }),
      ),
    );
    const outcomes = answers.map(outcome);
    expect(outcomes.filter((o) => o === '200 0')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== '200 0')).toEqual(Array.from({ length: 49 }, () => '400 4006'));
    expect((await accountsOf(h(), realmId)).map((a) => a.id)).toEqual([user.userId]);
    expect(await h().dbh.db.selectFrom('it_shadow_links').select('account_id').where('realm_id', '=', realmId).execute()).toEqual([
      { account_id: user.userId },
    ]);
    // the code is spent: the same answer later is refused too
    const again = await as(h()).post('/api/users/auth/login/sms', { realm_id: realmId, mobile: national, code, serialNo });
    expect(outcome(again)).toBe('400 4006');
  });

  it('A-33: a sent code takes at most 5 wrong tries, even 40 at once; then the right code is refused too', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port));
    const national = mobile();
    await ref.addUser({ username: `guess${uniq()}`, password: PASSWORD, phone: `+86${national}` });
    const { serialNo } = await smsCode(h(), national, 'login', realmId);
    const { code } = await ref.lastCode(`+86${national}`);
    const wrongCodes = Array.from({ length: 40 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(
      wrongCodes.map((c, i) =>
        as(h()).post('/api/users/auth/login/sms', { realm_id: realmId, mobile: national, code: c, serialNo }, { ip: `10.79.0.${i + 1}` }),
      ),
    );
    expect(answers.map(outcome)).toEqual(wrongCodes.map(() => '400 4006'));
    const right = await as(h()).post('/api/users/auth/login/sms', { realm_id: realmId, mobile: national, code, serialNo });
    expect(outcome(right)).toBe('400 4006');
    // umbo asked the backend 5 times only, whatever the backend's own limit
    const asked = (await ref.requests()).filter((r) => r.path === '/it/login-by-code' && r.fields.serialNo === serialNo);
    expect(asked).toHaveLength(5);
    expect(await accountsOf(h(), realmId)).toEqual([]);
  });

  it('A-33 100 parallel code requests for one number: one reaches the backend, the rest 1006 resend_too_soon, never a 500', async () => {
    const realmId = await itRealm(h(), itGroup('default', ref.port));
    const national = mobile();
    await ref.addUser({ username: `send${uniq()}`, password: PASSWORD, phone: `+86${national}` });
    const bodies = await Promise.all(
      Array.from({ length: 100 }, async () => ({ realm_id: realmId, mobile: national, purpose: 'login', ...(await captcha(h(), realmId)) })),
    );
    const answers = await Promise.all(bodies.map((b, i) => as(h()).post('/api/users/auth/sms-code', b, { ip: `10.80.${i >> 8}.${(i % 250) + 1}` })));
    const outcomes = answers.map(outcome);
    expect(outcomes.filter((o) => o === '200 0')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== '200 0')).toEqual(Array.from({ length: 99 }, () => '429 1006'));
    expect(answers.filter((r) => r.status === 429).every((r) => r.body.errData?.reason === 'resend_too_soon')).toBe(true);
    // what the backend received for this number: the one admitted request
    const sent = (await ref.requests()).filter((r) => r.path === '/it/verify-code' && r.fields.phone === `+86${national}`);
    expect(sent).toHaveLength(1);
    // after the documented 60 s the next code may go
    h().clock.advance(60_000);
    expect((await smsCode(h(), national, 'login', realmId)).res.status).toBe(200);
  });

  it('a number gets 10 backend codes a day (one a minute), then 1006 daily_cap without asking the backend', async () => {
    const day = 86_400_000;
    // the cap counts per UTC day: start the story early in a day of the fake clock
    h().clock.set((Math.floor(h().clock.now() / day) + 1) * day + 3_600_000);
    const realmId = await itRealm(h(), itGroup('default', ref.port));
    const national = mobile();
    const ask = async () =>
      as(h()).post('/api/users/auth/sms-code', { realm_id: realmId, mobile: national, purpose: 'login', ...(await captcha(h(), realmId)) });
    for (let i = 0; i < 10; i++) {
      expect(outcome(await ask())).toBe('200 0');
      h().clock.advance(60_000);
    }
    const over = await ask();
    expect(over.body).toMatchObject({ code: 1006, errData: { reason: 'daily_cap' } });
    const sent = (await ref.requests()).filter((r) => r.path === '/it/verify-code' && r.fields.phone === `+86${national}`);
    expect(sent).toHaveLength(10);
    // the refused request did not start a resend wait: the next day's first code goes at once
    h().clock.advance(day);
    expect(outcome(await ask())).toBe('200 0');
  });

  it('A-33 one address asking codes for 40 numbers at once gets 30 a day (the cap local codes share), the rest 1006 daily_cap without asking the backend', async () => {
    const day = 86_400_000;
    h().clock.set((Math.floor(h().clock.now() / day) + 1) * day + 3_600_000);
    const realmId = await itRealm(h(), itGroup('default', ref.port));
    const numbers = Array.from({ length: 40 }, () => mobile());
    const bodies = await Promise.all(numbers.map(async (n) => ({ realm_id: realmId, mobile: n, purpose: 'login', ...(await captcha(h(), realmId)) })));
    const answers = await Promise.all(bodies.map((b) => as(h()).post('/api/users/auth/sms-code', b, { ip: '10.81.0.7' })));
    const outcomes = answers.map(outcome);
    expect(outcomes.filter((o) => o === '200 0')).toHaveLength(30);
    expect(outcomes.filter((o) => o !== '200 0')).toEqual(Array.from({ length: 10 }, () => '429 1006'));
    expect(answers.filter((r) => r.status === 429).every((r) => r.body.errData?.reason === 'daily_cap')).toBe(true);
    const asked = new Set(numbers.map((n) => `+86${n}`));
    expect((await ref.requests()).filter((r) => r.path === '/it/verify-code' && asked.has(String(r.fields.phone)))).toHaveLength(30);
    // another address is not held by this one's cap
    const other = { realm_id: realmId, mobile: mobile(), purpose: 'login', ...(await captcha(h(), realmId)) };
    expect(outcome(await as(h()).post('/api/users/auth/sms-code', other, { ip: '10.81.0.8' }))).toBe('200 0');
  });

  it('a backend that cannot send (1303) does not cost the number its next code', async () => {
    const dead = itGroup('default', 1);
    const realmId = await itRealm(h(), dead);
    const national = mobile();
    const ask = async () =>
      as(h()).post('/api/users/auth/sms-code', { realm_id: realmId, mobile: national, purpose: 'login', ...(await captcha(h(), realmId)) });
    expect((await ask()).body).toMatchObject({ code: 1303 });
    // the operator fixes the port: the code goes at once, not after the resend wait
    const live = { ...itGroup('default', ref.port), appSercet: h().ctx.secrets.encrypt(APP_SECRET) };
    await setRealmSettings(h(), realmId, { backend_type: 'default', backend: live as never, backend_realm_id: 'tenant-1' });
    expect(outcome(await ask())).toBe('200 0');
  });
});
