/**
 * Password recovery by email link (24-character code, also pasted into /reset) and by SMS
 * code; reset ends every session (A-35, A-16 for sessions); type-namespaced codes.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { as, captcha, createPerson, createRealm, issueSession, lastCode, outboxFor, randomEmail, randomMobile, smsCode } from '../../test/kit.js';
import { verifyPassword } from '../passwords.js';

const resetCode = (body: string) => /\/reset\?realm_id=master&code=([A-Za-z0-9]{24})/.exec(body)?.[1];

describeBothDbs('password recovery', (h) => {
  /** An account with a live session (issued directly: an unactivated one could not sign in). */
  async function person(f: { phone?: string; email?: string; activated?: boolean }) {
    const account = await createPerson(h(), f);
    return { ...account, token: await issueSession(h(), account) };
  }
  const alive = async (token: string) => (await as(h(), token).get('/api/perm/user/info')).status;
  const passwordOk = async (id: string, password: string) => {
    const row = await h().ctx.repos.accounts.findAccountById('master', id);
    return verifyPassword(row!.password_hash!, password);
  };

  it('A-35 known and unknown addresses get the identical answer; only the known one gets mail', async () => {
    const known = randomEmail();
    await person({ email: known });
    const unknown = randomEmail();
    const a = await as(h()).post('/api/users/auth/retrieve/email', { email: known, ...(await captcha(h())) });
    const b = await as(h()).post('/api/users/auth/retrieve/email', { email: unknown, ...(await captcha(h())) });
    expect(a).toEqual({ status: 200, body: { result: 'ok', code: 0, data: { accepted: true } } });
    expect(b).toEqual(a);
    expect(await outboxFor(h(), known)).toHaveLength(1);
    expect(await outboxFor(h(), unknown)).toEqual([]);
  });

  it('A-35 the reset link uses PUBLIC_URL even with Host / X-Forwarded-Host: evil.test', async () => {
    const email = randomEmail();
    await person({ email });
    await as(h()).post(
      '/api/users/auth/retrieve/email',
      { email, ...(await captcha(h())) },
      { headers: { host: 'evil.test', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' } },
    );
    const [mail] = await outboxFor(h(), email);
    expect(mail!.body).toMatch(/\nhttp:\/\/umbo\.test\/reset\?realm_id=master&code=[A-Za-z0-9]{24}\n/);
    expect(mail!.body).not.toContain('evil');
  });

  it('A-35 reset by mail code: single use, ends every session, signs nobody in; reset codes are nothing else (A-46)', async () => {
    const email = randomEmail();
    const p = await person({ email, activated: false });
    await as(h()).post('/api/users/auth/retrieve/email', { email, ...(await captcha(h())) });
    const code = resetCode((await outboxFor(h(), email))[0]!.body)!;
    // a reset code is not an activation code
    expect((await as(h()).post('/api/users/auth/activate', { code })).body.code).toBe(4006);
    const short = await as(h()).post('/api/users/auth/reset', { code, password: '123' });
    expect(short.body.code).toBe(1009);
    const res = await as(h()).post('/api/users/auth/reset', { code, password: 'New-passw0rd' });
    expect(res).toEqual({ status: 200, body: { result: 'ok', code: 0, data: { accepted: true } } });
    expect(res.body.data).not.toHaveProperty('token');
    expect(await alive(p.token)).toBe(401);
    expect(await passwordOk(p.id, 'New-passw0rd')).toBe(true);
    // following the mail proved the address
    expect((await h().ctx.repos.accounts.findAccountById('master', p.id))!.activated).toBe(1);
    expect((await as(h()).post('/api/users/auth/reset', { code, password: 'Other-passw0rd' })).body.code).toBe(4006);
  });

  it('A-35 a reset code expires (4004), and a newer mail makes the older code worthless', async () => {
    const email = randomEmail();
    await person({ email });
    await as(h()).post('/api/users/auth/retrieve/email', { email, ...(await captcha(h())) });
    const older = resetCode((await outboxFor(h(), email))[0]!.body)!;
    h().clock.advance(1000); // the outbox lists newest first by time
    await as(h()).post('/api/users/auth/retrieve/email', { email, ...(await captcha(h())) });
    const newer = resetCode((await outboxFor(h(), email))[0]!.body)!;
    expect(newer).not.toBe(older);
    expect((await as(h()).post('/api/users/auth/reset', { code: older, password: 'New-passw0rd' })).body.code).toBe(4006);
    h().clock.advance(3600_000 + 1);
    expect((await as(h()).post('/api/users/auth/reset', { code: newer, password: 'New-passw0rd' })).body.code).toBe(4004);
  });

  it('retrieve by SMS code: new password, sessions ended; wrong code 4006; retrieval off → 1014', async () => {
    const mobile = randomMobile();
    const p = await person({ phone: `+86${mobile}` });
    const { serialNo } = await smsCode(h(), mobile, 'retrieve');
    const code = await lastCode(h(), `+86${mobile}`);
    const wrong = await as(h()).post('/api/users/auth/retrieve/sms', {
      mobile,
      code: code === '999999' ? '000000' : '999999',
      serialNo,
      password: 'New-passw0rd',
    });
    expect(wrong.body).toMatchObject({ code: 4006, error: 'code_invalid' });
    const ok = await as(h()).post('/api/users/auth/retrieve/sms', { mobile, code, serialNo, password: 'New-passw0rd' });
    expect(ok.body).toEqual({ result: 'ok', code: 0, data: { accepted: true } });
    expect(await alive(p.token)).toBe(401);
    expect(await passwordOk(p.id, 'New-passw0rd')).toBe(true);
    const realm = await createRealm(h(), { backend_support_find_back_method: ['sms'] });
    expect((await as(h()).post('/api/users/auth/retrieve/email', { realm_id: realm, email: randomEmail(), ...(await captcha(h(), realm)) })).body.code).toBe(
      1014,
    );
  });

  it('the reset mail is in the reader’s language', async () => {
    const email = randomEmail();
    await person({ email });
    await as(h()).post('/api/users/auth/retrieve/email', { email, lang: 'de', ...(await captcha(h())) });
    const [mail] = await outboxFor(h(), email);
    expect(mail!.subject).toBe('Setzen Sie Ihr Passwort bei umbo zurück');
    h().clock.advance(1000);
    await as(h()).post('/api/users/auth/retrieve/email', { email, ...(await captcha(h())) }, { headers: { 'accept-language': 'zh-CN' } });
    expect((await outboxFor(h(), email))[0]!.subject).toBe('重置您在 umbo 的密码');
  });
});
