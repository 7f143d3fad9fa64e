/**
 * Binding a phone or email to the own account (issue 3; SPEC §2 settings "binding"; A-36):
 * the current password first, a code to the NEW address, 1205 when another account has it.
 * Codes arrive through the outbox provider. Both databases.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { lastCode, outboxFor, randomEmail, randomMobile } from '../auth/flows/testing/flows-helpers.js';
import { call, createPerson, signIn, tokenFor } from './test-helpers.js';

describeBothDbs('binding phone and email', (h) => {
  async function person(opts: Parameters<typeof createPerson>[1] = {}) {
    const a = await createPerson(h(), opts);
    return { a, token: await tokenFor(h(), a) };
  }

  it('A-36 binding an email: password, then a code sent to the new address', async () => {
    const { a, token } = await person();
    const email = randomEmail();
    const noPassword = await call(h(), 'POST', '/api/users/account/binding/code', { token, payload: { channel: 'email', email, password: 'Wrong-Password-2' } });
    expect(noPassword).toMatchObject({ status: 400, body: { code: 1010 } });
    expect(await outboxFor(h(), email)).toEqual([]);
    const sent = await call(h(), 'POST', '/api/users/account/binding/code', { token, payload: { channel: 'email', email: email.toUpperCase(), password: a.password } });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ serialNo: expect.any(String), expiresAt: h().clock.now() + 300_000, resendAt: h().clock.now() + 60_000 });
    const code = await lastCode(h(), email.toUpperCase());
    const wrong = await call(h(), 'POST', '/api/users/account/binding', { token, payload: { channel: 'email', email, serialNo: sent.body.data.serialNo, code: code === '000000' ? '111111' : '000000' } });
    expect(wrong).toMatchObject({ status: 400, body: { code: 5002 } });
    const bound = await call(h(), 'POST', '/api/users/account/binding', { token, payload: { channel: 'email', email, serialNo: sent.body.data.serialNo, code } });
    // case does not matter for the code; the address is kept as typed when binding
    expect(bound.body.data).toEqual({ email, phone: null });
    expect((await call(h(), 'GET', '/api/users/account', { token })).body.data.email).toBe(email);
    // the code was used up
    const again = await call(h(), 'POST', '/api/users/account/binding', { token, payload: { channel: 'email', email, serialNo: sent.body.data.serialNo, code } });
    expect(again.body.code).toBe(4007);
  });

  it('binding a phone (E.164), then unbinding it with the password', async () => {
    const { a, token } = await person();
    const mobile = randomMobile();
    expect((await call(h(), 'POST', '/api/users/account/binding/code', { token, payload: { channel: 'sms', mobile: '12345678901', password: a.password } })).body.code).toBe(1009);
    const sent = await call(h(), 'POST', '/api/users/account/binding/code', { token, payload: { channel: 'sms', mobile, password: a.password } });
    expect(sent.status).toBe(200);
    const code = await lastCode(h(), `+86${mobile}`);
    const bound = await call(h(), 'POST', '/api/users/account/binding', { token, payload: { channel: 'sms', mobile, serialNo: sent.body.data.serialNo, code } });
    expect(bound.body.data).toEqual({ email: null, phone: `+86${mobile}` });
    const off = await call(h(), 'DELETE', '/api/users/account/binding', { token, payload: { channel: 'sms', password: a.password } });
    expect(off.body.data).toEqual({ email: null, phone: null });
    expect((await call(h(), 'DELETE', '/api/users/account/binding', { token, payload: { channel: 'sms', password: 'Nope-Nope-1' } })).body.code).toBe(1010);
  });

  it("1205 for another account's address; a code sent for another account proves nothing here", async () => {
    const taken = randomEmail();
    await createPerson(h(), { email: taken });
    const { a, token } = await person();
    const res = await call(h(), 'POST', '/api/users/account/binding/code', { token, payload: { channel: 'email', email: taken, password: a.password } });
    expect(res).toMatchObject({ status: 409, body: { code: 1205 } });

    const shared = randomEmail();
    const { a: b, token: tokenB } = await person();
    const forB = await call(h(), 'POST', '/api/users/account/binding/code', { token: tokenB, payload: { channel: 'email', email: shared, password: b.password } });
    const code = await lastCode(h(), shared);
    const stolen = await call(h(), 'POST', '/api/users/account/binding', { token, payload: { channel: 'email', email: shared, serialNo: forB.body.data.serialNo, code } });
    expect(stolen).toMatchObject({ status: 400, body: { code: 4007 } });
    expect((await call(h(), 'GET', '/api/users/account', { token })).body.data.email).toBeNull();
  });

  it('a binding code cannot sign in (its purpose is bind)', async () => {
    const { a, token } = await person();
    const email = randomEmail();
    const sent = await call(h(), 'POST', '/api/users/account/binding/code', { token, payload: { channel: 'email', email, password: a.password } });
    const code = await lastCode(h(), email);
    await call(h(), 'POST', '/api/users/account/binding', { token, payload: { channel: 'email', email, serialNo: sent.body.data.serialNo, code } });
    const res = await call(h(), 'POST', '/api/users/auth/login/email', { payload: { email, code, serialNo: sent.body.data.serialNo } });
    expect(res.status).toBe(400);
    expect((await signIn(h(), a)).status).toBe(200);
  });
});
