/**
 * Issue 11's settings groups over HTTP on both databases: each backend type's group, the
 * OAuth config group and the sign-in protection, every rule with a rejecting and an
 * accepting case; their secrets write-only, sealed, absent from audit rows; the protection
 * really used by the password throttle; logo and icon upload served back publicly.
 */
import { PROTECTION_DEFAULTS } from '@umbo/contracts';
import { expect, it } from 'vitest';
import { THROTTLE_DEFAULTS, throttlePolicyOf } from '../auth/throttle/defaults.js';
import { CAPTCHA_DEFAULTS, CODE_DEFAULTS } from '../codes/defaults.js';
import { describeBothDbs } from '../test/harness.js';
import { as, createPerson, lastCode, randomMobile, signIn, smsCode } from '../test/kit.js';
import { apiRealm, auditRows, BACKEND_EXTRAS, BACKENDS, dataUrl, OAUTH, pngBytes, rawRealm, SECRET_VALUES, settingsUrl } from './realms.testkit.js';

type Case = [string, Record<string, unknown>, string?];

const eco = BACKENDS.ecogloble;
const P = PROTECTION_DEFAULTS;
const protection = (account: Partial<Record<keyof typeof P.account, number>> = {}, rest: Record<string, unknown> = {}) => ({
  ...P,
  account: { ...P.account, ...account },
  ...rest,
});

/** [what, PATCH body, field named by the 1009] — a body without a field is accepted. */
const CASES: Case[] = [
  ['ecogloble group', { backend: eco, ...BACKEND_EXTRAS }],
  ['default group', { backend: BACKENDS.default, ...BACKEND_EXTRAS }],
  ['bigdata group', { backend: BACKENDS.bigdata, ...BACKEND_EXTRAS }],
  ['ali living group', { backend: BACKENDS.aliliving, ...BACKEND_EXTRAS }],
  ['default type without a group (the built-in store)', { backend_type: 'default', backend: null }],
  ['external type without its group', { backend_type: 'ecogloble' }, 'backend'],
  ['type and group disagree', { backend_type: 'bigdata', backend: eco, ...BACKEND_EXTRAS }, 'backend.type'],
  ['backend realm id missing', { backend: eco, ...BACKEND_EXTRAS, backend_realm_id: '' }, 'backend_realm_id'],
  ['register URL missing', { backend: eco, ...BACKEND_EXTRAS, backend_regist_url: '' }, 'backend_regist_url'],
  ['register URL not http(s)', { backend_regist_url: 'ftp://x.example.com' }, 'backend_regist_url'],
  ['register URL http', { backend_regist_url: 'http://x.example.com/reg' }],
  ['port 0', { backend: { ...eco, port: 0 }, ...BACKEND_EXTRAS }, 'backend.port'],
  ['port 65536', { backend: { ...eco, port: 65_536 }, ...BACKEND_EXTRAS }, 'backend.port'],
  ['port 65535', { backend: { ...eco, port: 65_535 }, ...BACKEND_EXTRAS }],
  ['path without /', { backend: { ...eco, loginpath: 'login' }, ...BACKEND_EXTRAS }, 'backend.loginpath'],
  ['region host with a scheme', { backend: { ...eco, regions: [{ region: 'cn', host: 'https://x.cn' }] }, ...BACKEND_EXTRAS }, 'backend.regions.0.host'],
  ['no regions', { backend: { ...eco, regions: [] }, ...BACKEND_EXTRAS }, 'backend.regions'],
  ['default region not listed', { backend: { ...eco, defaultRegion: 'us' }, ...BACKEND_EXTRAS }, 'backend.defaultRegion'],
  ['appKey empty', { backend: { ...eco, appKey: '' }, ...BACKEND_EXTRAS }, 'backend.appKey'],
  ['appSercet missing on a new group', { backend: { ...eco, appSercet: undefined }, ...BACKEND_EXTRAS }, 'backend.appSercet'],
  [
    'default type needs getUserInfoListByUcUids',
    { backend: { ...BACKENDS.default, getUserInfoListByUcUids: undefined }, ...BACKEND_EXTRAS },
    'backend.getUserInfoListByUcUids',
  ],
  ['bigdata host empty', { backend: { ...BACKENDS.bigdata, host: '' }, ...BACKEND_EXTRAS }, 'backend.host'],
  ['bigdata category empty', { backend: { ...BACKENDS.bigdata, category: '' }, ...BACKEND_EXTRAS }, 'backend.category'],
  ['ali living secret missing', { backend: { ...BACKENDS.aliliving, appCloudSecret: undefined }, ...BACKEND_EXTRAS }, 'backend.appCloudSecret'],
  ['unknown backend field', { backend: { ...BACKENDS.bigdata, extra: 1 }, ...BACKEND_EXTRAS }, 'backend.extra'],
  ['oauth group', { oauth: OAUTH }],
  ['oauth token endpoint not a URL', { oauth: { ...OAUTH, tokenEndpoint: 'javascript:alert(1)' } }, 'oauth.tokenEndpoint'],
  ['oauth OIDC without well-known', { oauth: { ...OAUTH, oidcWellknowEndpoint: '' } }, 'oauth.oidcWellknowEndpoint'],
  ['oauth plain OAuth without well-known', { oauth: { ...OAUTH, isOIDC: false, oidcWellknowEndpoint: '' } }],
  ['oauth overwrite without redirect URI', { oauth: { ...OAUTH, redirectURIOverwrite: true } }, 'oauth.redirectURI'],
  ['oauth overwrite with redirect URI', { oauth: { ...OAUTH, redirectURIOverwrite: true, redirectURI: 'https://umbo.example.com/cb' } }],
  ['oauth client id empty', { oauth: { ...OAUTH, clientID: '' } }, 'oauth.clientID'],
  ['oauth scope with a double space', { oauth: { ...OAUTH, accessTokenScope: 'openid  profile' } }, 'oauth.accessTokenScope'],
  ['protection at today\u2019s defaults', { protection: protection() }],
  ['protection tighter', { protection: protection({ freeFailures: 1, lockAfter: 2 }) }],
  ['protection: 0 free failures', { protection: protection({ freeFailures: 0 }) }, 'protection.account.freeFailures'],
  ['protection: lock never comes', { protection: protection({ lockAfter: 100_000 }) }, 'protection.account.lockAfter'],
  ['protection: lock before the free failures end', { protection: protection({ freeFailures: 5, lockAfter: 5 }) }, 'protection.account.lockAfter'],
  ['protection: zero-minute lock', { protection: protection({ lockMinutes: 0 }) }, 'protection.account.lockMinutes'],
  ['protection: max lock under the lock', { protection: protection({ lockMinutes: 30, maxLockMinutes: 20 }) }, 'protection.account.maxLockMinutes'],
  ['protection: 1-minute memory', { protection: protection({ windowMinutes: 1 }) }, 'protection.account.windowMinutes'],
  ['protection: 11 code attempts', { protection: protection({}, { codeMaxAttempts: 11 }) }, 'protection.codeMaxAttempts'],
  ['protection: captcha never due', { protection: protection({}, { captchaAfterFailures: 0 }) }, 'protection.captchaAfterFailures'],
  ['protection back to the defaults', { protection: null }],
];

describeBothDbs('realm settings groups (issue 11)', (h) => {
  const admin = () => h().login();

  it('every group rule: one rejecting (1009 naming the field, nothing written) and one accepting case', async () => {
    const token = await admin();
    const realm = await apiRealm(h(), token);
    for (const [what, body, field] of CASES) {
      const before = (await rawRealm(h(), realm))!.settings;
      const res = await as(h(), token).patch(settingsUrl(realm), body);
      if (field) {
        expect(res.status, what).toBe(400);
        expect(res.body, what).toMatchObject({ code: 1009, errData: { field } });
        expect((await rawRealm(h(), realm))!.settings, what).toBe(before);
      } else {
        expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(200);
      }
    }
  });

  it('a realm of each backend type can be created with its group; the answer shows the group and no secret', async () => {
    const token = await admin();
    for (const backend of Object.values(BACKENDS)) {
      const id = await apiRealm(h(), token, { settings: { backend, ...BACKEND_EXTRAS } });
      const got = await as(h(), token).get(settingsUrl(id));
      expect(got.body.data.backend_type).toBe(backend.type);
      expect(got.body.data.backend.type).toBe(backend.type);
      for (const secret of SECRET_VALUES) expect(JSON.stringify(got.body)).not.toContain(secret);
    }
  });

  it('secrets (appSercet, appCloudSecret, clientSecret) are write-only, sealed at rest, kept when omitted, never in audit rows', async () => {
    const token = await admin();
    const realm = await apiRealm(h(), token);
    const res = await as(h(), token).patch(settingsUrl(realm), { backend: eco, ...BACKEND_EXTRAS, oauth: OAUTH });
    expect(res.body.data.backend).toMatchObject({ appSercet: '', hasAppSercet: true, appKey: eco.appKey });
    expect(res.body.data.oauth).toMatchObject({ clientSecret: '', hasClientSecret: true });
    const { appSercet: _s, ...ecoNoSecret } = eco;
    const { clientSecret: _c, ...oauthNoSecret } = OAUTH;
    // omitted: kept (same destination)
    const again = await as(h(), token).patch(settingsUrl(realm), { backend: { ...ecoNoSecret, appKey: 'other-key' }, oauth: oauthNoSecret });
    expect(again.body.data.backend).toMatchObject({ hasAppSercet: true, appKey: 'other-key' });
    expect(again.body.data.oauth.hasClientSecret).toBe(true);
    // a kept secret never follows a changed destination
    const moved = await as(h(), token).patch(settingsUrl(realm), { backend: { ...ecoNoSecret, regions: [{ region: 'cn', host: 'evil.example.net' }] } });
    expect(moved.body).toMatchObject({ code: 1009, errData: { field: 'backend.appSercet' } });
    const movedOAuth = await as(h(), token).patch(settingsUrl(realm), { oauth: { ...oauthNoSecret, tokenEndpoint: 'https://evil.example.net/token' } });
    expect(movedOAuth.body).toMatchObject({ code: 1009, errData: { field: 'oauth.clientSecret' } });
    // ali living
    await as(h(), token).patch(settingsUrl(realm), { backend: BACKENDS.aliliving });
    const raw = (await rawRealm(h(), realm))!.settings;
    for (const secret of SECRET_VALUES) expect(raw).not.toContain(secret);
    const sealed = JSON.parse(raw) as { backend: { appCloudSecret: string }; oauth: { clientSecret: string } };
    expect(h().ctx.secrets.decrypt(sealed.backend.appCloudSecret)).toBe('ali-Secret-993');
    expect(h().ctx.secrets.decrypt(sealed.oauth.clientSecret)).toBe('oauth-Secret-994');
    const events = await auditRows(h(), realm);
    const settingsEvents = events.filter((e) => e.action === 'realm.settings');
    expect(settingsEvents.length).toBe(3);
    // the fake clock stands still: the events' order is not the writes' order
    const changes = settingsEvents.map((e) => (JSON.parse(e.detail) as { changes: string[] }).changes);
    expect(changes).toContainEqual(['backend', 'backend.appSercet', 'backend_realm_id', 'backend_regist_url', 'backend_type', 'oauth', 'oauth.clientSecret']);
    for (const secret of SECRET_VALUES) expect(JSON.stringify(events)).not.toContain(secret);
  });

  it('the realm\u2019s protection drives the password throttle; a realm that sets none keeps today\u2019s budget', async () => {
    const token = await admin();
    const strict = await apiRealm(h(), token, {
      settings: { protection: protection({ freeFailures: 1, lockAfter: 2, lockMinutes: 5 }), captchaPolicy: 'always' },
    });
    const plain = await apiRealm(h(), token);
    for (const realmId of [strict, plain]) {
      const person = await createPerson(h(), { realmId });
      const wrong = { username: person.username, password: 'Wrong-Pass-000', realmId };
      const ip = `10.77.${strict === realmId ? 1 : 2}.9`;
      await signIn(h(), wrong, { ip });
      await signIn(h(), wrong, { ip });
      const third = await signIn(h(), wrong, { ip });
      if (realmId === strict) {
        // the 2nd failure locked for 5 minutes (lockAfter 2)
        expect(third.body).toMatchObject({ code: 1010, errData: { locked: true, retryAfter: 300 } });
      } else {
        // default: 3 free failures, nothing waits yet
        expect(third.body.errData).toBeUndefined();
      }
    }
  });

  it('the realm\u2019s code budget: with codeMaxAttempts 1 one wrong try spends the SMS code; by default it does not', async () => {
    const token = await admin();
    const strict = await apiRealm(h(), token, { settings: { protection: protection({}, { codeMaxAttempts: 1 }) } });
    const plain = await apiRealm(h(), token);
    for (const realmId of [strict, plain]) {
      const mobile = randomMobile();
      await createPerson(h(), { realmId, phone: `+86${mobile}` });
      const { serialNo } = await smsCode(h(), mobile, 'login', realmId);
      const code = await lastCode(h(), `+86${mobile}`);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      expect((await as(h()).post('/api/users/auth/login/sms', { realm_id: realmId, mobile, code: wrong, serialNo })).status).toBe(400);
      const right = await as(h()).post('/api/users/auth/login/sms', { realm_id: realmId, mobile, code, serialNo });
      expect(right.status, realmId === strict ? 'strict realm' : 'default realm').toBe(realmId === strict ? 400 : 200);
    }
  });

  it('today\u2019s defaults shown by the form are the ones the server applies', () => {
    expect(throttlePolicyOf(PROTECTION_DEFAULTS)).toEqual(THROTTLE_DEFAULTS);
    expect(THROTTLE_DEFAULTS.account).toMatchObject({ freeFailures: 3, baseDelayMs: 1000, lockAfter: 10, lockMs: 15 * 60_000, maxLockMs: 60 * 60_000 });
    expect(PROTECTION_DEFAULTS.codeMaxAttempts).toBe(CODE_DEFAULTS.maxAttempts);
    expect(PROTECTION_DEFAULTS.captchaAfterFailures).toBe(CAPTCHA_DEFAULTS.failuresBeforeCaptcha);
    expect(PROTECTION_DEFAULTS.captchaAfterFormRequests).toBe(CAPTCHA_DEFAULTS.formRequestsBeforeCaptcha);
  });

  it('logo and icon upload: png/jpeg bytes within 4 KB / 16 KB, served back publicly with its type; the sign-in options point at it', async () => {
    const token = await admin();
    const realm = await apiRealm(h(), token);
    const logo = pngBytes(4096);
    const up = await as(h(), token).put(`/api/users/realms/${realm}/branding/logo`, { dataUrl: dataUrl(logo) });
    expect(up.status).toBe(200);
    const url = up.body.data.url as string;
    expect(url).toMatch(new RegExp(`^/api/users/realms/${realm}/branding/logo\\?v=\\d+$`));
    const served = await as(h()).get(url);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.raw.equals(logo)).toBe(true);
    const options = await as(h()).get(`/api/users/auth/options?realm_id=${realm}`);
    expect(options.body.data.logo).toBe(url);

    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), pngBytes(2000)]);
    expect((await as(h(), token).put(`/api/users/realms/${realm}/branding/icon`, { dataUrl: dataUrl(jpeg, 'image/jpeg') })).status).toBe(200);
    expect((await as(h()).get(`/api/users/realms/${realm}/branding/icon`)).headers['content-type']).toBe('image/jpeg');

    const refusals: [string, string, string][] = [
      ['logo', dataUrl(pngBytes(4097)), 'too_large'],
      ['icon', dataUrl(pngBytes(16 * 1024 + 1)), 'too_large'],
      ['logo', dataUrl(Buffer.from('GIF89a-not-an-allowed-type')), 'png_or_jpeg'],
      ['logo', dataUrl(Buffer.from('<svg onload="alert(1)"/>'), 'image/png'), 'png_or_jpeg'],
    ];
    for (const [kind, body, reason] of refusals) {
      const res = await as(h(), token).put(`/api/users/realms/${realm}/branding/${kind}`, { dataUrl: body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 1033, errData: { kind, reason } });
    }
    expect((await as(h()).get(url)).raw.equals(logo)).toBe(true);
    expect((await as(h(), token).delete(`/api/users/realms/${realm}/branding/logo`)).status).toBe(200);
    expect((await as(h()).get(url)).status).toBe(404);
    expect((await as(h(), token).get(settingsUrl(realm))).body.data.logo_img_url).toBe('');
  });
});
