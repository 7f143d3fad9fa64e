/**
 * GET / PATCH /api/users/realms/:realmId/settings over HTTP on both databases: defaults,
 * what a change does to the public sign-in options and flows, write-only sealed secrets,
 * validation that names the field and writes nothing, and who may read or change what.
 */
import crypto from 'node:crypto';
import { PROTECTION_DEFAULTS } from '@umbo/contracts';
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, bindRole, captcha, createPerson, createRealm, randomMobile, tokenFor } from '../test/kit.js';
import { defaultRealmSettings } from './realm-settings.js';

const url = (realmId: string) => `/api/users/realms/${realmId}/settings`;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A data URL of `bytes` bytes that starts like a PNG (the check reads the signature and size). */
const pngDataUrl = (bytes: number) => `data:image/png;base64,${Buffer.concat([PNG, crypto.randomBytes(bytes - PNG.length)]).toString('base64')}`;
/** Issue 11's groups of a realm that set none: no backend or OAuth, today's protection. */
const NO_GROUPS = { backend: null, oauth: null, protection: PROTECTION_DEFAULTS };
const mail = { host: 'smtp.example.com', port: 587, secure: false, user: 'mailer', password: 'S3cret-mail-pw', from: 'Umbo <no-reply@example.com>' };

describeBothDbs('realm settings API', (h) => {
  const admin = () => h().login();
  const rawSettings = async (realmId: string) =>
    (await h().dbh.db.selectFrom('realms').select('settings').where('id', '=', realmId).executeTakeFirstOrThrow()).settings;

  /** An account of `realmId` holding `role` there, and its token. */
  async function holder(realmId: string, role?: 'realm-admin' | 'realm-viewer') {
    const person = await createPerson(h(), { realmId });
    if (role) await bindRole(h(), person, role, realmId);
    return tokenFor(h(), person);
  }

  it('GET answers the defaults of a realm that never changed them, secrets groups null', async () => {
    const realm = await createRealm(h());
    const res = await as(h(), await admin()).get(url(realm));
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ result: 'ok', code: 0, data: { realmId: realm, ...defaultRealmSettings(), ...NO_GROUPS, email: null, sms: null } });
  });

  it('PATCH changes what /auth/options reports and what the flows accept (1014 once sms sign-in is off)', async () => {
    const realm = await createRealm(h());
    const token = await admin();
    const smsLogin = async () =>
      as(h()).post('/api/users/auth/sms-code', { realm_id: realm, mobile: randomMobile(), purpose: 'login', ...(await captcha(h(), realm)) });
    expect((await smsLogin()).status).toBe(200);

    const logo = pngDataUrl(1000);
    const res = await as(h(), token).patch(url(realm), {
      backend_support_login_method: ['password', 'email'],
      captchaPolicy: 'after_failures',
      logo_img_url: logo,
      backend_support_login_regions: ['86', '852'],
    });
    expect(res.status).toBe(200);
    // the whole record comes back: changed fields and untouched defaults
    expect(res.body.data).toEqual({
      realmId: realm,
      ...defaultRealmSettings(),
      backend_support_login_method: ['password', 'email'],
      captchaPolicy: 'after_failures',
      logo_img_url: logo,
      backend_support_login_regions: ['86', '852'],
      ...NO_GROUPS,
      email: null,
      sms: null,
    });
    const options = await h().app.inject({ method: 'GET', url: `/api/users/auth/options?realm_id=${realm}` });
    expect(options.json().data).toMatchObject({ loginMethods: ['password', 'email'], captchaPolicy: 'after_failures', logo, loginRegions: ['86', '852'] });

    const refused = await smsLogin();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(1014);
    // a later PATCH of another field keeps this one
    await as(h(), token).patch(url(realm), { needActive: false });
    expect((await as(h(), token).get(url(realm))).body.data).toMatchObject({ needActive: false, backend_support_login_method: ['password', 'email'] });
  });

  it('logo and icon: https URL or png/jpeg data URL within 4 KB / 16 KB (SPEC §5); never SVG or http (A-41)', async () => {
    const realm = await createRealm(h());
    const token = await admin();
    const patch = (payload: object) => as(h(), token).patch(url(realm), payload);
    for (const good of [
      { logo_img_url: pngDataUrl(4096) },
      { logo_img_url: 'HTTPS://cdn.example.com/logo.png' },
      { icon_img_url: pngDataUrl(16 * 1024) },
      { logo_img_url: '' },
    ]) {
      expect((await patch(good)).status, JSON.stringify(good).slice(0, 60)).toBe(200);
    }
    const before = await rawSettings(realm);
    const bad: [object, string][] = [
      [{ logo_img_url: pngDataUrl(4097) }, 'logo_img_url'],
      [{ icon_img_url: pngDataUrl(16 * 1024 + 1) }, 'icon_img_url'],
      [{ logo_img_url: `data:image/svg+xml;base64,${Buffer.from('<svg onload="alert(1)"/>').toString('base64')}` }, 'logo_img_url'],
      [{ logo_img_url: `data:image/png;base64,${Buffer.from('GIF89a not a png').toString('base64')}` }, 'logo_img_url'],
      [{ logo_img_url: 'http://cdn.example.com/logo.png' }, 'logo_img_url'],
      [{ logo_img_url: 'javascript:alert(1)' }, 'logo_img_url'],
    ];
    for (const [payload, field] of bad) {
      const res = await patch(payload);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 1009, errData: { field } });
    }
    expect(await rawSettings(realm)).toBe(before);
  });

  it('secrets are write-only and sealed at rest: answered as "" + has*, kept when omitted, cleared by ""', async () => {
    const realm = await createRealm(h());
    const token = await admin();
    const twilio = { provider: 'twilio', accountSid: 'AC123', authToken: 'tw-token-Zq81', from: '+15005550006' };
    const res = await as(h(), token).patch(url(realm), { email: mail, sms: twilio });
    expect(res.status).toBe(200);
    expect(res.body.data.email).toEqual({ ...mail, password: '', hasPassword: true });
    expect(res.body.data.sms).toEqual({ ...twilio, authToken: '', hasAuthToken: true });
    const got = await as(h(), token).get(url(realm));
    expect(got.body.data.email).toEqual(res.body.data.email);
    expect(JSON.stringify(got.body)).not.toContain('S3cret-mail-pw');
    expect(JSON.stringify(got.body)).not.toContain('tw-token-Zq81');

    // at rest: the row carries sealed values the notify code can open
    const row = await rawSettings(realm);
    expect(row).not.toContain('S3cret-mail-pw');
    expect(row).not.toContain('tw-token-Zq81');
    const stored = JSON.parse(row);
    expect(h().ctx.secrets.decrypt(stored.email.password)).toBe('S3cret-mail-pw');
    expect(h().ctx.secrets.decrypt(stored.sms.authToken)).toBe('tw-token-Zq81');

    // omitted → kept (same destination); other fields change
    const { password: _omit, ...mailWithoutPassword } = mail;
    const kept = await as(h(), token).patch(url(realm), {
      email: { ...mailWithoutPassword, from: 'ops@example.com' },
      sms: { ...twilio, authToken: undefined },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.data.email).toMatchObject({ from: 'ops@example.com', hasPassword: true });
    expect(kept.body.data.sms).toMatchObject({ hasAuthToken: true });
    expect(h().ctx.secrets.decrypt(JSON.parse(await rawSettings(realm)).email.password)).toBe('S3cret-mail-pw');

    // '' clears an optional secret; a required one (Twilio's token) cannot be cleared
    const cleared = await as(h(), token).patch(url(realm), { email: { ...mail, password: '' } });
    expect(cleared.body.data.email).toMatchObject({ password: '', hasPassword: false });
    expect(JSON.parse(await rawSettings(realm)).email.password).toBeUndefined();
    const required = await as(h(), token).patch(url(realm), { sms: { ...twilio, authToken: '' } });
    expect(required.body).toMatchObject({ code: 1009, errData: { field: 'sms.authToken' } });

    // null drops the realm's own group (back to the global provider)
    const dropped = await as(h(), token).patch(url(realm), { email: null, sms: null });
    expect(dropped.body.data).toMatchObject({ email: null, sms: null });
  });

  it('a kept secret never follows a changed destination: the new host or endpoint needs it again', async () => {
    const realm = await createRealm(h());
    const token = await admin();
    await as(h(), token).patch(url(realm), { email: mail, sms: { provider: 'webhook', url: 'https://sms.example.com/hook', secret: 'hook-secret' } });
    const before = await rawSettings(realm);
    const { password: _omit, ...mailWithoutPassword } = mail;
    const moved = await as(h(), token).patch(url(realm), { email: { ...mailWithoutPassword, host: 'evil.example.net' } });
    expect(moved.status).toBe(400);
    expect(moved.body).toMatchObject({ code: 1009, errData: { field: 'email.password' } });
    const hook = await as(h(), token).patch(url(realm), { sms: { provider: 'webhook', url: 'https://evil.example.net/hook' } });
    expect(hook.body).toMatchObject({ code: 1009, errData: { field: 'sms.secret' } });
    // switching provider never carries a secret over: Aliyun needs its own
    const aliyun = await as(h(), token).patch(url(realm), { sms: { provider: 'aliyun', accessKeyId: 'LTAI1', signName: 'umbo', templateCode: 'SMS_1' } });
    expect(aliyun.body).toMatchObject({ code: 1009, errData: { field: 'sms.accessKeySecret' } });
    expect(await rawSettings(realm)).toBe(before);
    // with the secret given again the move is accepted
    const ok = await as(h(), token).patch(url(realm), { email: { ...mail, host: 'smtp2.example.com', password: 'n3w-pw' } });
    expect(ok.body.data.email).toMatchObject({ host: 'smtp2.example.com', hasPassword: true });
  });

  it('validation failures answer 1009 naming the field and write nothing (A-40: unknown fields refused)', async () => {
    const realm = await createRealm(h());
    const token = await admin();
    const before = await rawSettings(realm);
    const cases: [object, string][] = [
      [{ backend_support_login_method: ['password', 'fax'] }, 'backend_support_login_method.1'],
      [{ backend_support_login_method: [] }, 'backend_support_login_method'],
      [{ backend_support_regist_method: ['otp'] }, 'backend_support_regist_method.0'],
      [{ backend_support_find_back_method: ['email', 'email'] }, 'backend_support_find_back_method'],
      [{ backend_support_login_regions: ['86', '8612'] }, 'backend_support_login_regions.1'],
      [{ backend_support_login_regions: ['+1'] }, 'backend_support_login_regions.0'],
      [{ passwordMinLength: 5 }, 'passwordMinLength'],
      [{ passwordMinLength: 129 }, 'passwordMinLength'],
      [{ captchaPolicy: 'never' }, 'captchaPolicy'],
      [{ activeEmailTpl: 'x'.repeat(8193) }, 'activeEmailTpl'],
      [{ accountCertValidity: 10 }, 'accountCertValidity'],
      [{ accountCertValidity: 9000 }, 'accountCertValidity'],
      [{ needActive: 'yes' }, 'needActive'],
      // a valid field next to a bad one: neither is written
      [{ needActive: false, passwordMinLength: 3 }, 'passwordMinLength'],
      [{ isSuperAdmin: true }, 'isSuperAdmin'],
      [{ realmId: 'master' }, 'realmId'],
      // an external backend type needs its group (issue 11)
      [{ backend_type: 'bigdata' }, 'backend'],
      [{ email: { ...mail, bcc: 'spy@example.net' } }, 'email.bcc'],
      [{ email: { ...mail, port: 70000 } }, 'email.port'],
      [{ email: { ...mail, from: 'x@example.com\r\nBcc: spy@example.net' } }, 'email.from'],
      [{ email: { ...mail, host: 'smtp.example.com/x' } }, 'email.host'],
      [{ email: { ...mail, user: '', password: 'pw' } }, 'email.user'],
      [{ sms: { provider: 'carrier-pigeon' } }, 'sms.provider'],
      [{ sms: { provider: 'webhook', url: 'ftp://example.com/x' } }, 'sms.url'],
      [{ sms: { provider: 'twilio', accountSid: 'AC1', authToken: 't' } }, 'sms.from'],
    ];
    for (const [payload, field] of cases) {
      const res = await as(h(), token).patch(url(realm), payload);
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.body, JSON.stringify(payload).slice(0, 80)).toMatchObject({ result: 'fail', code: 1009, errData: { field } });
      expect(res.body.msg).toContain(field);
    }
    expect(await rawSettings(realm)).toBe(before);
  });

  it("the master realm keeps password sign-in: its administrators' console needs it (1009, nothing written)", async () => {
    const token = await admin();
    const before = await rawSettings('master');
    const res = await as(h(), token).patch(url('master'), { backend_support_login_method: ['sms', 'email'] });
    expect(res.body).toMatchObject({ code: 1009, errData: { field: 'backend_support_login_method' } });
    expect(await rawSettings('master')).toBe(before);
    // another realm may turn it off
    const realm = await createRealm(h());
    expect((await as(h(), token).patch(url(realm), { backend_support_login_method: ['sms'] })).status).toBe(200);
  });

  it('A-38: no token 401; without domain.query 403 with the missing-permission errData; a viewer reads but cannot edit', async () => {
    const realm = await createRealm(h());
    expect((await as(h()).get(url(realm))).body.code).toBe(1001);
    const plain = await holder(realm);
    const denied = await as(h(), plain).get(url(realm));
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 1003, errData: { service: 'users', resource: 'domain', perm: 'query' } });
    expect((await as(h(), plain).patch(url(realm), { needActive: false })).status).toBe(403);

    const viewer = await holder(realm, 'realm-viewer');
    expect((await as(h(), viewer).get(url(realm))).status).toBe(200);
    const edit = await as(h(), viewer).patch(url(realm), { needActive: false });
    expect(edit.status).toBe(403);
    expect(edit.body.errData).toEqual({ service: 'users', resource: 'domain', perm: 'edit' });
    expect(JSON.parse(await rawSettings(realm)).needActive).toBe(true);
  });

  it("A-39: a realm's administrator reaches that realm only; master's admin reaches every realm; unknown realm 1004", async () => {
    const mine = await createRealm(h());
    const other = await createRealm(h());
    const realmAdmin = await holder(mine, 'realm-admin');
    expect((await as(h(), realmAdmin).patch(url(mine), { passwordMinLength: 10 })).body.data.passwordMinLength).toBe(10);

    const otherBefore = await rawSettings(other);
    for (const target of [other, 'master', 'no-such-realm']) {
      const read = await as(h(), realmAdmin).get(url(target));
      // 403 even for a realm that does not exist: nothing to learn about other realms' ids
      expect(read.status, target).toBe(403);
      expect(read.body.errData).toEqual({ service: 'users', resource: 'domain', perm: 'query' });
      const write = await as(h(), realmAdmin).patch(url(target), { passwordMinLength: 12 });
      expect(write.status, target).toBe(403);
    }
    expect(await rawSettings(other)).toBe(otherBefore);

    const token = await admin();
    expect((await as(h(), token).patch(url(other), { passwordMinLength: 8 })).body.data.passwordMinLength).toBe(8);
    const unknown = await as(h(), token).get(url('no-such-realm'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(1004);
    expect((await as(h(), token).patch(url('no-such-realm'), { needActive: false })).body.code).toBe(1004);
    expect((await as(h(), token).get(url('bad realm!'))).body).toMatchObject({ code: 1009, errData: { field: 'realmId' } });
  });

  it('appears in the OpenAPI document with its tag', async () => {
    const doc = (await h().app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const path = doc.paths['/api/users/realms/{realmId}/settings'];
    expect(path.get.tags).toEqual(['realms']);
    expect(path.patch.tags).toEqual(['realms']);
    expect(path.patch.summary).toMatch(/write-only/);
  });
});
