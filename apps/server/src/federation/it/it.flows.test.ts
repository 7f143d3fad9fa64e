/**
 * The console's own sign-in and registration routes in a realm behind an IT backend (issue 14):
 * SMS code sign-in and registration (e-mail, SMS) go to the reference backend; e-mail codes and
 * recovery codes are not ours to send there (1014).
 */
process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';

import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { as, captcha, signIn, smsCode } from '../../test/kit.js';
import { accountsOf, itGroup, itRealm, startReference, type RefBackend } from './it.testkit.js';

let ref: RefBackend;
beforeAll(async () => {
  ref = await startReference();
});
afterAll(() => ref.close());

const uniq = () => Math.random().toString(36).slice(2, 10);
const mobile = () => `137${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const PASSWORD = 'Backend-Pass-1';

describeBothDbs('IT-interface sign-in and registration routes', (h) => {
  it('SMS code sign-in: the backend sends and checks the code; a wrong code is 4006', async () => {
    const realmId = await itRealm(h(), itGroup('default', ref.port));
    const national = mobile();
    const user = await ref.addUser({ username: `sms${uniq()}`, password: PASSWORD, phone: `+86${national}` });
    const { serialNo } = await smsCode(h(), national, 'login', realmId);
    const { code } = await ref.lastCode(`+86${national}`);
    const wrong = await as(h()).post('/api/users/auth/login/sms', {
      realm_id: realmId,
      mobile: national,
      code: code === '111111' ? '222222' : '111111',
      serialNo,
    });
    expect(wrong.body).toMatchObject({ code: 4006 });
    const res = await as(h()).post('/api/users/auth/login/sms', { realm_id: realmId, mobile: national, code, serialNo });
    expect(res.status).toBe(200);
    expect((await accountsOf(h(), realmId)).map((a) => a.id)).toEqual([user.userId]);
  });

  it('registration by e-mail goes to the backend; then the password form signs in; twice is 1205', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port));
    const username = `reg${uniq()}`;
    const body = async () => ({ realm_id: realmId, email: `${username}@example.test`, password: PASSWORD, username, ...(await captcha(h(), realmId)) });
    const res = await as(h()).post('/api/users/auth/register/email', await body());
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ username, activationRequired: false });
    expect((await ref.requests()).at(-1)).toMatchObject({ path: '/it/register', fields: { username, email: `${username}@example.test` } });
    expect((await as(h()).post('/api/users/auth/register/email', await body())).body.code).toBe(1205);
    expect((await signIn(h(), { username, password: PASSWORD, realmId })).status).toBe(200);
    const rows = await accountsOf(h(), realmId);
    expect(rows.map((r) => [r.username, r.password_hash])).toEqual([[username, null]]);
  });

  it('registration by SMS: the backend code goes back with the registration', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port, { doAuthNeedCountryCode: true }));
    const national = mobile();
    const { serialNo } = await smsCode(h(), national, 'register', realmId);
    const { code } = await ref.lastCode(`+86${national}`);
    const res = await as(h()).post('/api/users/auth/register/sms', { realm_id: realmId, mobile: national, code, serialNo, password: PASSWORD });
    expect(res.status).toBe(200);
    expect((await ref.requests()).at(-1)!.fields).toMatchObject({ phone: national, countryCode: '86', code, serialNo });
    expect((await accountsOf(h(), realmId))[0]!.phone).toBe(`+86${national}`);
  });

  it('e-mail codes and recovery codes are refused (1014): the backend owns these accounts', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port));
    const email = await as(h()).post('/api/users/auth/email-code', {
      realm_id: realmId,
      email: 'x@example.test',
      purpose: 'login',
      ...(await captcha(h(), realmId)),
    });
    expect(email.body).toMatchObject({ code: 1014 });
    const sms = await as(h()).post('/api/users/auth/sms-code', { realm_id: realmId, mobile: mobile(), purpose: 'retrieve', ...(await captcha(h(), realmId)) });
    expect(sms.body).toMatchObject({ code: 1014 });
    const reset = await as(h()).post('/api/users/auth/retrieve/email', { realm_id: realmId, email: 'x@example.test', ...(await captcha(h(), realmId)) });
    expect(reset.body).toMatchObject({ code: 1014 });
  });
});
