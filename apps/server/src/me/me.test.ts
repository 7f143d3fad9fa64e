/**
 * The signed-in user's own account (issue 3; SPEC §3 "Account centre", §5): account centre,
 * user name and avatar, password change, sessions, preferences, and mass
 * assignment. Both databases.
 */
import { phrases } from '@umbo/contracts';
import { expect, it } from 'vitest';
import { expandCommonPasswords, isCommonPassword } from '../accounts/common-passwords.js';
import { describeBothDbs } from '../test/harness.js';
import { as, captcha, createPerson, createRealm, createService, randomName, signIn, tokenFor } from '../test/kit.js';

// 1×1 transparent PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

it('A-29 the common-passwords list has thousands of entries and ignores case', () => {
  expect(expandCommonPasswords().size).toBeGreaterThan(3000);
  for (const p of ['123456', 'password', 'Password1', 'QWERTY123', 'iloveyou', 'dragon2024', 'woaini1314', '11111111']) expect(isCommonPassword(p)).toBe(true);
  for (const p of ['Zebra-Quartz-71', 'correct horse battery staple']) expect(isCommonPassword(p)).toBe(false);
});

describeBothDbs('own account', (h) => {
  async function person(opts: Parameters<typeof createPerson>[1] = {}) {
    const a = await createPerson(h(), opts);
    return { a, token: await tokenFor(h(), a) };
  }

  it('the account centre shows SPEC §3 fields of the own account', async () => {
    const { a, token } = await person({ registArea: '86' });
    const res = await as(h(), token).get('/api/users/account');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      accountMark: a.username,
      id: a.id,
      username: a.username,
      kind: 'person',
      domain: 'master',
      domainId: 'master',
      avatar: '',
      email: null,
      phone: null,
      lastLoginArea: '',
      lastLoginTime: h().clock.now(),
      registTime: expect.any(Number),
      registArea: '86',
      updateTime: expect.any(Number),
      otpEnabled: false,
      forcePassword: false,
    });
    expect((await as(h()).get('/api/users/account')).status).toBe(401);
  });

  it('SPEC §5 user name: 3-24, must differ (1009), taken (1205), then signs in under the new name', async () => {
    const { a, token } = await person();
    const other = await createPerson(h());
    const same = await as(h(), token).patch('/api/users/account', { username: a.username });
    expect(same).toMatchObject({ status: 400, body: { code: 1009, errData: { field: 'username', reason: 'validation.username_same' } } });
    // the reason is told in the caller's language, in msg (the server's own phrases: platform/i18n.ts)
    expect(same.body.msg).toContain(phrases.en.validation.username_same);
    const sameZh = await as(h(), token).patch('/api/users/account', { username: a.username }, { lang: 'zh-CN' });
    expect(sameZh.body.msg).toContain(phrases['zh-CN'].validation.username_same);
    expect((await as(h(), token).patch('/api/users/account', { username: 'ab' })).body.code).toBe(1009);
    expect((await as(h(), token).patch('/api/users/account', { username: 'has space' })).body.code).toBe(1009);
    const taken = await as(h(), token).patch('/api/users/account', { username: other.username.toUpperCase(), avatar: 'https://cdn.example.test/a.png' });
    expect(taken).toMatchObject({ status: 409, body: { code: 1205, error: 'user_exists', msg: expect.stringContaining('User already exists') } });
    // no partial write: the avatar of the refused request was not kept
    expect((await as(h(), token).get('/api/users/account')).body.data.avatar).toBe('');
    const fresh = randomName('New_');
    const renamed = await as(h(), token).patch('/api/users/account', { username: fresh });
    expect(renamed.body.data).toMatchObject({ username: fresh, accountMark: fresh, id: a.id });
    expect((await signIn(h(), { ...a, username: fresh.toLowerCase() })).status).toBe(200);
    expect((await signIn(h(), a)).body.code).toBe(1010);
  });

  it("a rename carries the account's service accounts along (owner/subname)", async () => {
    const { a, token } = await person();
    const svc = await createService(h(), a, 'cam_01');
    const fresh = randomName('o');
    expect((await as(h(), token).patch('/api/users/account', { username: fresh })).status).toBe(200);
    expect((await signIn(h(), { ...svc, username: `${fresh}/cam_01` })).status).toBe(200);
    expect((await signIn(h(), svc)).body.code).toBe(1010);
    const svcToken = (await signIn(h(), { ...svc, username: `${fresh}/cam_01` })).body.data.token;
    expect((await as(h(), svcToken).get('/api/users/account')).body.data).toMatchObject({ kind: 'service', accountMark: `${fresh}/cam_01`.toLowerCase() });
    expect(await as(h(), svcToken).patch('/api/users/account', { username: 'other_name' })).toMatchObject({ status: 403, body: { code: 1003 } });
  });

  it('A-40 fields naming another account, realm or state are ignored', async () => {
    const { a, token } = await person();
    const victim = await createPerson(h());
    const res = await as(h(), token).patch('/api/users/account', {
      id: victim.id,
      realm_id: 'elsewhere',
      realmId: 'elsewhere',
      kind: 'service',
      disabled: 1,
      force_password: 1,
      isSuperAdmin: true,
      permissions: ['*'],
      avatar: 'https://cdn.example.test/me.png',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: a.id, domainId: 'master', kind: 'person', forcePassword: false, avatar: 'https://cdn.example.test/me.png' });
    const v = await h().ctx.repos.accounts.findAccountById('master', victim.id);
    expect(v).toMatchObject({ avatar: '', disabled: 0 });
  });

  it('avatar: an http(s) URL or an uploaded jpeg/png ≤ 4 KB, served inert', async () => {
    const { token } = await person();
    expect((await as(h(), token).patch('/api/users/account', { avatar: 'javascript:alert(1)' })).body.code).toBe(1009);
    expect(
      (await as(h(), token).put('/api/users/account/avatar', { image: dataUrl('image/svg+xml', Buffer.from('<svg onload="alert(1)"/>')) })).body.code,
    ).toBe(1009);
    expect(
      (await as(h(), token).put('/api/users/account/avatar', { image: dataUrl('image/png', Buffer.from('<svg onload="alert(1)"/>')) })).body,
    ).toMatchObject({ code: 1009, errData: { reason: 'avatar_format' } });
    const big = Buffer.concat([PNG, Buffer.alloc(4097 - PNG.length)]);
    expect(await as(h(), token).put('/api/users/account/avatar', { image: dataUrl('image/png', big) })).toMatchObject({ status: 413, body: { code: 1013 } });
    const up = await as(h(), token).put('/api/users/account/avatar', { image: dataUrl('image/png', PNG) });
    expect(up.status).toBe(200);
    const url = up.body.data.avatar as string;
    expect(url).toMatch(/^\/api\/users\/avatars\/master\/[a-z0-9]{32}$/);
    expect((await as(h(), token).get('/api/users/account')).body.data.avatar).toBe(url);
    // fetched without a token, as an <img> does
    const img = await as(h()).get(url);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    expect(img.raw.equals(PNG)).toBe(true);
    // the realm is part of the address; a URL avatar replaces the upload
    expect((await as(h()).get(url.replace('/master/', '/other/'))).status).toBe(404);
    await as(h(), token).patch('/api/users/account', { avatar: 'https://cdn.example.test/b.png' });
    expect((await as(h()).get(url)).status).toBe(404);
  });

  it('A-36 a password change needs the old password and ends every other session', async () => {
    const { a, token } = await person();
    const second = await tokenFor(h(), a);
    expect(await as(h(), token).post('/api/users/account/password', { oldPassword: 'Wrong-Old-Pass-1', newPassword: 'Brand-New-Pass-42' })).toMatchObject({
      status: 400,
      body: { code: 1010 },
    });
    const res = await as(h(), token).post('/api/users/account/password', { oldPassword: a.password, newPassword: 'Brand-New-Pass-42' });
    expect(res).toMatchObject({ status: 200, body: { result: 'ok', code: 0, data: {} } });
    expect((await as(h(), second).get('/api/users/account')).status).toBe(401);
    expect((await as(h(), token).get('/api/users/account')).status).toBe(200);
    expect((await signIn(h(), a)).body.code).toBe(1010);
    expect((await signIn(h(), { ...a, password: 'Brand-New-Pass-42' })).status).toBe(200);
    const stored = await h().ctx.repos.accounts.findAccountById('master', a.id);
    expect(stored!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("A-29 new passwords: ≥ 6, ≥ the realm's minimum, not common, not the old one; no composition rules", async () => {
    const realm = await createRealm(h(), { passwordMinLength: 10 });
    const { a, token } = await person({ realmId: realm });
    const change = (newPassword: string) => as(h(), token).post('/api/users/account/password', { oldPassword: a.password, newPassword });
    expect((await change('abc12')).body).toMatchObject({ code: 1009, errData: { field: 'newPassword' } });
    expect(await change('kx9!tqwz')).toMatchObject({
      status: 400,
      body: { code: 1021, error: 'password_rejected', errData: { reason: 'too_short', min: 10 } },
    });
    expect((await change('Password123')).body).toMatchObject({ code: 1021, errData: { reason: 'too_common' } });
    expect((await change('QWERTYUIOP')).body).toMatchObject({ code: 1021, errData: { reason: 'too_common' } });
    expect((await change(a.password)).body).toMatchObject({ code: 1021, errData: { reason: 'same_as_old' } });
    expect((await change('x'.repeat(4097))).body).toMatchObject({ code: 1009, errData: { field: 'newPassword' } });
    // lower case only, long enough, not common: accepted (ASVS 6.2.5)
    expect((await change('mellow river lantern')).status).toBe(200);
  });

  it('sessions: listed with device and IP, ended one by one, only the own', async () => {
    const { a, token } = await person();
    const other = await as(h()).post(
      '/api/users/auth/login',
      { username: a.username, password: a.password, ...(await captcha(h())) },
      { ip: '10.9.8.7', headers: { 'user-agent': 'RobotPhone/2.0' } },
    );
    const otherToken = other.body.data.token as string;
    const list = await as(h(), token).get('/api/users/account/sessions');
    expect(list.body.data.total).toBe(2);
    const phone = list.body.data.items.find((s: { userAgent: string }) => s.userAgent === 'RobotPhone/2.0');
    expect(phone).toEqual({
      id: expect.any(String),
      ip: '10.9.8.7',
      userAgent: 'RobotPhone/2.0',
      createdAt: h().clock.now(),
      lastSeenAt: h().clock.now(),
      expiresAt: h().clock.now() + 604_800_000,
      current: false,
    });
    expect(list.body.data.items.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    // another account cannot end it
    const { token: strangerToken } = await person();
    expect(await as(h(), strangerToken).delete(`/api/users/account/sessions/${phone.id}`)).toMatchObject({ status: 404, body: { code: 1004 } });
    expect((await as(h(), otherToken).get('/api/users/account')).status).toBe(200);
    expect((await as(h(), token).delete(`/api/users/account/sessions/${phone.id}`)).status).toBe(200);
    expect((await as(h(), otherToken).get('/api/users/account')).status).toBe(401);
    expect((await as(h(), token).get('/api/users/account/sessions')).body.data.total).toBe(1);
    expect((await as(h(), token).delete(`/api/users/account/sessions/${phone.id}`)).body.code).toBe(1004);
  });

  it('settings: language, theme and notifications kept on the server, merged on change', async () => {
    const { token } = await person();
    const defaults = { language: 'zh-CN', theme: 'dark', color: '#1890ff', notifications: { securityEmail: true, securitySms: false } };
    expect((await as(h(), token).get('/api/users/account/settings')).body.data).toEqual(defaults);
    const res = await as(h(), token).patch('/api/users/account/settings', { theme: 'light', language: 'pt', notifications: { securitySms: true } });
    expect(res.body.data).toEqual({ ...defaults, theme: 'light', language: 'pt', notifications: { ...defaults.notifications, securitySms: true } });
    expect((await as(h(), token).get('/api/users/account/settings')).body.data.theme).toBe('light');
    expect((await as(h(), token).patch('/api/users/account/settings', { language: 'xx' })).body.code).toBe(1009);
    expect((await as(h(), token).patch('/api/users/account/settings', { color: 'red;background:url(x)' })).body.code).toBe(1009);
  });

  it('settings: the removed productEmail is ignored, in stored records and from older clients', async () => {
    const { a, token } = await person();
    // a record written before productEmail was removed
    const stored = { language: 'ja', theme: 'light', color: '#1890ff', notifications: { securityEmail: false, securitySms: true, productEmail: true } };
    await h().ctx.repos.me.saveSettings(a.realmId, a.id, JSON.stringify(stored), h().clock.now());
    const expected = { ...stored, notifications: { securityEmail: false, securitySms: true } };
    expect((await as(h(), token).get('/api/users/account/settings')).body.data).toEqual(expected);
    const old = await as(h(), token).patch('/api/users/account/settings', { notifications: { productEmail: false } });
    expect(old).toMatchObject({ status: 200, body: { data: expected } });
  });
});
