/**
 * Binding a phone or email to the own account (issue 3; SPEC §2 settings "binding"; A-36):
 * the current password first, a code to the NEW address, 1205 when another account has it.
 * Codes arrive through the outbox provider. Both databases.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, createPerson, lastCode, outboxFor, randomEmail, randomMobile, signIn, tokenFor } from '../test/kit.js';

describeBothDbs('binding phone and email', (h) => {
  async function person(opts: Parameters<typeof createPerson>[1] = {}) {
    const a = await createPerson(h(), opts);
    return { a, token: await tokenFor(h(), a) };
  }

  it('A-36 binding an email: password, then a code sent to the new address', async () => {
    const { a, token } = await person();
    const email = randomEmail();
    const noPassword = await as(h(), token).post('/api/users/account/binding/code', { channel: 'email', email, password: 'Wrong-Password-2' });
    expect(noPassword).toMatchObject({ status: 400, body: { code: 1010 } });
    expect(await outboxFor(h(), email)).toEqual([]);
    const sent = await as(h(), token).post('/api/users/account/binding/code', { channel: 'email', email: email.toUpperCase(), password: a.password });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ serialNo: expect.any(String), expiresAt: h().clock.now() + 300_000, resendAt: h().clock.now() + 60_000 });
    const code = await lastCode(h(), email.toUpperCase());
    const wrong = await as(h(), token).post('/api/users/account/binding', {
      channel: 'email',
      email,
      serialNo: sent.body.data.serialNo,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong).toMatchObject({ status: 400, body: { code: 5002 } });
    const bound = await as(h(), token).post('/api/users/account/binding', { channel: 'email', email, serialNo: sent.body.data.serialNo, code });
    // case does not matter for the code; the address is kept as typed when binding
    expect(bound.body.data).toEqual({ email, phone: null });
    expect((await as(h(), token).get('/api/users/account')).body.data.email).toBe(email);
    // the code was used up
    const again = await as(h(), token).post('/api/users/account/binding', { channel: 'email', email, serialNo: sent.body.data.serialNo, code });
    expect(again.body.code).toBe(4007);
  });

  it('binding a phone (E.164), then unbinding it with the password', async () => {
    const { a, token } = await person();
    const mobile = randomMobile();
    expect((await as(h(), token).post('/api/users/account/binding/code', { channel: 'sms', mobile: '12345678901', password: a.password })).body.code).toBe(
      1009,
    );
    const sent = await as(h(), token).post('/api/users/account/binding/code', { channel: 'sms', mobile, password: a.password });
    expect(sent.status).toBe(200);
    const code = await lastCode(h(), `+86${mobile}`);
    const bound = await as(h(), token).post('/api/users/account/binding', { channel: 'sms', mobile, serialNo: sent.body.data.serialNo, code });
    expect(bound.body.data).toEqual({ email: null, phone: `+86${mobile}` });
    const off = await as(h(), token).delete('/api/users/account/binding', { channel: 'sms', password: a.password });
    expect(off.body.data).toEqual({ email: null, phone: null });
    expect((await as(h(), token).delete('/api/users/account/binding', { channel: 'sms', password: 'Nope-Nope-1' })).body.code).toBe(1010);
  });

  it("1205 for another account's address; a code sent for another account proves nothing here", async () => {
    const taken = randomEmail();
    await createPerson(h(), { email: taken });
    const { a, token } = await person();
    const res = await as(h(), token).post('/api/users/account/binding/code', { channel: 'email', email: taken, password: a.password });
    expect(res).toMatchObject({ status: 409, body: { code: 1205 } });

    const shared = randomEmail();
    const { a: b, token: tokenB } = await person();
    const forB = await as(h(), tokenB).post('/api/users/account/binding/code', { channel: 'email', email: shared, password: b.password });
    const code = await lastCode(h(), shared);
    const stolen = await as(h(), token).post('/api/users/account/binding', { channel: 'email', email: shared, serialNo: forB.body.data.serialNo, code });
    expect(stolen).toMatchObject({ status: 400, body: { code: 4007 } });
    expect((await as(h(), token).get('/api/users/account')).body.data.email).toBeNull();
  });

  it('a binding code cannot sign in (its purpose is bind)', async () => {
    const { a, token } = await person();
    const email = randomEmail();
    const sent = await as(h(), token).post('/api/users/account/binding/code', { channel: 'email', email, password: a.password });
    const code = await lastCode(h(), email);
    await as(h(), token).post('/api/users/account/binding', { channel: 'email', email, serialNo: sent.body.data.serialNo, code });
    const res = await as(h()).post('/api/users/auth/login/email', { email, code, serialNo: sent.body.data.serialNo });
    expect(res.status).toBe(400);
    expect((await signIn(h(), a)).status).toBe(200);
  });
});
