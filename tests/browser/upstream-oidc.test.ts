/**
 * Issue 14 "Tests": sign-in through a realm's upstream OpenID provider in Chromium. The
 * upstream is oidc-provider (apps/server/src/federation/upstream/upstream.testkit.ts) on a
 * loopback port, its login and consent finished for the user the test names. The person
 * opens the realm's sign-in page, presses "Sign in with …", passes the upstream and lands
 * back in the console, signed in as the account created just in time. An account with a
 * one-time password gets the password form's OTP step after the upstream; a realm behind an
 * IT backend sends "Register an account" to the backend's registration page.
 * Screenshots: test-results/browser/upstream-oidc-<nn>-<locale>-<step>.png.
 */
import crypto from 'node:crypto';
import { hashPassword } from '../../apps/server/src/auth/passwords.js';
import { base32Decode, hotp } from '../../apps/server/src/otp/totp.js';
import { defaultRealmSettings } from '../../apps/server/src/realms/realm-settings.js';
import { BACKENDS } from '../../apps/server/src/realms/realms.testkit.js';
import { startOidcProvider, type Idp } from '../../apps/server/src/federation/upstream/upstream.testkit.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signInWithCaptcha, waitForShell } from './actions';
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import { zhCN } from '@umbo/contracts/phrases/zh-CN/index';
import { checkScreen } from './screen-checks';
import { assertPrerequisites, browserPresent, browserRequired, expectNoCspViolations, launchBrowser, newWatchedPage, screenshot } from './harness';
import { startInProcessServer, type InProcessServer } from './in-process';

describe.skipIf(!browserPresent && !browserRequired)('upstream OpenID sign-in in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: InProcessServer;
  let browser: Browser;
  let idp: Idp;
  const realmId = `up${crypto.randomBytes(3).toString('hex')}`;
  const itRealmId = `it${crypto.randomBytes(3).toString('hex')}`;
  const saved = process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;

  beforeAll(async () => {
    assertPrerequisites();
    // the upstream listens on 127.0.0.1: the operator's switch for private targets
    process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';
    server = await startInProcessServer();
    idp = await startOidcProvider([`${server.baseUrl}/api/federation/${realmId}/oidc/callback`]);
    const now = Date.now();
    await server.ctx.repos.realms.insertRealm({
      id: realmId,
      name: realmId,
      description: 'a realm signing in through Corp SSO',
      settings: JSON.stringify({
        ...defaultRealmSettings(),
        oauth: {
          isOIDC: true,
          clientID: idp.clientId,
          clientSecret: server.ctx.secrets.encrypt(idp.clientSecret),
          loginEndpoint: `${idp.issuer}/auth`,
          tokenEndpoint: `${idp.issuer}/token`,
          oidcWellknowEndpoint: idp.wellKnown,
          accessTokenScope: 'openid email profile',
          redirectURIOverwrite: false,
          redirectURI: '',
          loginURI: '',
          displayName: 'Corp SSO',
          // the OTP case: the upstream's verified address finds the local account
          linkVerifiedEmail: true,
        },
      }),
      created_at: now,
      updated_at: now,
    });
    await server.ctx.repos.realms.insertRealm({
      id: itRealmId,
      name: itRealmId,
      description: 'a realm whose accounts live in an IT backend',
      settings: JSON.stringify({
        ...defaultRealmSettings(),
        backend_type: 'ecogloble',
        backend: { ...BACKENDS.ecogloble, appSercet: server.ctx.secrets.encrypt(BACKENDS.ecogloble.appSercet) },
        backend_realm_id: 'tenant-7',
        backend_regist_url: 'https://it.example.cn/register',
      }),
      created_at: now,
      updated_at: now,
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await idp?.close();
    await server?.stop();
    if (saved === undefined) delete process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;
    else process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = saved;
  });

  async function visitor(lang = 'en'): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 900 } });
    await context.addInitScript((l) => {
      if (location.protocol.startsWith('http')) localStorage.setItem('app_language', JSON.stringify({ value: l, expire: null }));
    }, lang);
    return (await newWatchedPage(context)).page;
  }

  it('the sign-in page offers "Sign in with Corp SSO"; upstream login; back in the console, signed in as the account made just in time', async () => {
    const username = `corp_${crypto.randomBytes(3).toString('hex')}`;
    idp.users.set('corp-user-1', { preferred_username: username, email: `${username}@corp.example`, email_verified: true });
    idp.next.sub = 'corp-user-1';

    const page = await visitor();
    await page.goto(`/user/loginSSO?realm_id=${realmId}`);
    const button = page.locator('[data-testid=upstream-sign-in]');
    await expect.poll(() => button.textContent()).toBe('Sign in with Corp SSO');
    // the local methods are still there beside it
    await page.locator('#login-username').waitFor();
    await screenshot(page, 'sign-in-page');

    await button.click();
    await waitForShell(page);
    expect(new URL(page.url()).searchParams.has('upstream_ticket')).toBe(false);
    await expect.poll(() => page.locator('[data-testid=user-name]').textContent()).toContain(username);
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
    await screenshot(page, 'signed-in');

    const account = await server.ctx.repos.accounts.findAccountByUsername(realmId, username);
    expect(account).toBeTruthy();
    expect(await server.ctx.repos.federatedIdentities.listForAccount(realmId, account!.id)).toMatchObject([{ issuer: idp.issuer, subject: 'corp-user-1' }]);
  });

  it('the administrator sees the link on the person drawer (1440 and 390 px, English and Arabic) and removes it after the confirmation', async () => {
    const username = `corp_${crypto.randomBytes(3).toString('hex')}`;
    idp.users.set('corp-user-drawer', { preferred_username: username, email: `${username}@corp.example`, email_verified: true });
    idp.next.sub = 'corp-user-drawer';
    const first = await visitor();
    await first.goto(`/user/loginSSO?realm_id=${realmId}`);
    await first.locator('[data-testid=upstream-sign-in]').click();
    await waitForShell(first);
    await first.context().close();

    for (const [lang, phrases] of [
      ['en', en],
      ['ar', ar],
    ] as const) {
      const page = await visitor(lang);
      await signInWithCaptcha(page, 'admin', server.adminPassword, server.captchaAnswer);
      await page.goto(`/account/person?realmId=${realmId}`);
      await page.locator('[data-testid=person-name]', { hasText: new RegExp(`^${username}$`) }).click();
      const links = page.locator('[data-testid=person-drawer] [data-testid=person-upstream-links]');
      await links.locator('[data-testid=person-upstream-link]').getByText(idp.issuer).waitFor();
      await checkScreen(page, `person-upstream-link-${lang}`, () => links.scrollIntoViewIfNeeded());
      if (lang === 'ar') {
        await links.locator('[data-testid=person-upstream-remove]').click();
        await page.locator('.ant-popconfirm:not(.ant-popover-hidden) .ant-btn-primary').click();
        await links.getByText(phrases.people.person.upstream_empty).waitFor();
      }
      await page.context().close();
    }
    const account = await server.ctx.repos.accounts.findAccountByUsername(realmId, username);
    expect(await server.ctx.repos.federatedIdentities.listForAccount(realmId, account!.id)).toEqual([]);
  });

  it('a failed upstream sign-in comes back to the sign-in page with its message, the form still usable', async () => {
    const page = await visitor();
    // a callback this browser did not start (no transaction cookie): what a forged or stale link gets
    await page.goto(`/api/federation/${realmId}/oidc/callback?code=forged&state=forged`);
    await expect
      .poll(() => page.locator('[data-testid=upstream-error]').textContent())
      .toBe('Sign-in through the external provider did not complete. Please try again.');
    await page.locator('#login-username').waitFor();
    await screenshot(page, 'upstream-error');
  });

  it('the button and the error pass the screen checks at 1440 and 390 px in Chinese, English and Arabic (right to left)', async () => {
    for (const [lang, phrases] of [
      ['zh-CN', zhCN],
      ['en', en],
      ['ar', ar],
    ] as const) {
      const page = await visitor(lang);
      await page.goto(`/api/federation/${realmId}/oidc/callback?code=forged&state=forged`);
      await expect.poll(() => page.locator('[data-testid=upstream-sign-in]').textContent()).toBe(phrases.login.upstream_button.replace('{{name}}', 'Corp SSO'));
      await expect.poll(() => page.locator('[data-testid=upstream-error]').textContent()).toBe(phrases.errors.upstream_sign_in_failed);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      await checkScreen(page, `upstream-${lang}`);
      await page.context().close();
    }
  });
  it('an account with a one-time password: after the upstream, the OTP step; a wrong code stays in it, the right one signs in', async () => {
    // a local account of the realm with OTP on, whose address the upstream vouches for
    const username = `otp_${crypto.randomBytes(3).toString('hex')}`;
    const password = 'Otp-upstream-Pa55';
    const email = `${username}@corp.example`;
    await server.ctx.repos.accounts.insertPerson({ realmId, username, passwordHash: await hashPassword(password), email, now: Date.now() });
    const post = async (path: string, body: object, token?: string) =>
      (await (
        await fetch(`${server.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        })
      ).json()) as { code: number; data?: any };
    const c = await server.ctx.services.captcha.issue(realmId);
    const token = (await post('/api/users/auth/login', { realm_id: realmId, username, password, captcha: c.answer, serialNo: c.serialNo })).data
      .token as string;
    const secret = (await post('/api/users/account/otp/setup', { password }, token)).data.secret as string;
    const key = base32Decode(secret);
    const step = () => Math.floor(Date.now() / 30_000);
    expect((await post('/api/users/account/otp/enable', { firstCode: hotp(key, step() - 1), secondCode: hotp(key, step()) }, token)).code).toBe(0);
    idp.users.set('corp-otp-1', { preferred_username: 'someone-else', email, email_verified: true });
    idp.next.sub = 'corp-otp-1';

    const page = await visitor();
    await page.goto(`/user/loginSSO?realm_id=${realmId}`);
    await page.locator('[data-testid=upstream-sign-in]').click();
    const prompt = page.locator('[data-testid=login-otp-prompt]');
    await prompt.waitFor();
    expect(await prompt.textContent()).toBe(en.login.otp_prompt.replace('{{username}}', username));
    // the OTP step is the whole form: no password form beside it, no error, no ticket in the address bar
    expect(await page.locator('#login-username').count()).toBe(0);
    expect(await page.locator('[data-testid=login-error]').count()).toBe(0);
    expect(new URL(page.url()).searchParams.has('upstream_ticket')).toBe(false);
    await checkScreen(page, 'upstream-otp-step');

    await page.locator('#login-otp').fill('000000');
    await page.locator('[data-testid=login-submit]').click();
    await page.locator('[data-testid=login-error]').filter({ hasText: 'OTP verification failed' }).waitFor();
    await screenshot(page, 'upstream-otp-wrong');

    // the codes that turned it on are spent; the next step is still within ±1
    await page.locator('#login-otp').fill(hotp(key, step() + 1));
    await page.locator('[data-testid=login-submit]').click();
    await waitForShell(page);
    await expect.poll(() => page.locator('[data-testid=user-name]').textContent()).toContain(username);
  });

  it('"Register an account" leads to the backend of a realm behind an IT backend, to our own page elsewhere', async () => {
    const page = await visitor();
    await page.goto(`/user/loginSSO?realm_id=${itRealmId}`);
    const link = page.locator('[data-testid=to-register]');
    await expect.poll(() => link.getAttribute('href')).toBe('https://it.example.cn/register');
    expect(await link.textContent()).toBe(en.login.register);
    await page.goto(`/user/loginSSO?realm_id=${realmId}`);
    await page.locator('#login-username').waitFor();
    expect(await page.locator('[data-testid=to-register]').getAttribute('href')).toMatch(/^\/user\/register/);
  });
});
