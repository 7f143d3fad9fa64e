/**
 * An OAuth sign-in in Chromium (issue 12, DESIGN.md §4): an application of a non-master realm
 * sends the browser to the realm's authorization endpoint; the browser lands on /user/loginSSO
 * with the application's login tips (as text), "back to the app" and "register" links; the
 * person signs in, approves on the consent screen, and arrives at the application's redirect
 * URI (a small HTTP server in this test) with a code, the state and iss. Then the SSO session
 * brings a second request straight back, and a refusal arrives as access_denied.
 * Screens are checked at 1440 and 390 px in zh-CN, en-US and Arabic (axe, layout).
 * Screenshots: test-results/browser/oauth-authorize-<nn>-<locale>-<step>.png.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientPaths, personPaths } from '@umbo/contracts';
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import { zhCN as zh } from '@umbo/contracts/phrases/zh-CN/index';
import type { Phrases } from '@umbo/contracts/phrases/types';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './actions';
import {
  assertPrerequisites,
  browserPresent,
  browserRequired,
  expectNoCspViolations,
  launchBrowser,
  newWatchedPage,
  startServer,
  type RunningServer,
} from './harness';
import { checkScreen } from './screen-checks';

const REALM = `app${Date.now() % 100000}`;
const TIPS = 'Use your <b>work</b> account.\nNew here? Ask your team lead.';
const LOGIN_URL = 'https://app.example.com/welcome';
const REGIST_URL = 'https://app.example.com/join';
const PASSWORD = 'Oauth-Pass-8642';

/** The application's redirect URI: a loopback HTTP server that records what arrives. */
function startApp(): Promise<{ port: number; hits: URL[]; close(): Promise<void> }> {
  const hits: URL[] = [];
  const server = http.createServer((req, res) => {
    hits.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>app</title><h1>Back in the app</h1></html>');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as AddressInfo).port, hits, close: () => new Promise((r) => server.close(() => r())) }),
    ),
  );
}

describe.skipIf(!browserPresent && !browserRequired)('OAuth sign-in in Chromium: tips, consent, back to the application', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startApp>>;
  let adminToken = '';
  let clientId = '';

  async function call(method: string, path: string, body?: object) {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: body ? JSON.stringify(body) : undefined,
    });
    return (await res.json()) as { code: number; data: any };
  }

  const redirectUri = () => `http://127.0.0.1:${app.port}/cb`;

  function authorizeUrl(state: string, extra: Record<string, string> = {}) {
    const verifier = crypto.randomBytes(32).toString('base64url');
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri(),
      scope: 'openid profile email',
      state,
      nonce: crypto.randomBytes(8).toString('hex'),
      code_challenge: crypto.createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      ...extra,
    });
    return `/realms/${REALM}/oauth/authorize?${params.toString()}`;
  }

  async function newPerson(): Promise<string> {
    const username = `oa${crypto.randomBytes(4).toString('hex')}`;
    const made = await call('POST', personPaths.list(REALM), { username, password: PASSWORD, forcePassword: false });
    expect(made.code, JSON.stringify(made)).toBe(0);
    return username;
  }

  /** Waits until the application received a request with this state. */
  async function arrival(state: string): Promise<URL> {
    await expect.poll(() => app.hits.some((u) => u.searchParams.get('state') === state)).toBe(true);
    return app.hits.find((u) => u.searchParams.get('state') === state)!;
  }

  async function throughSignInAndConsent(page: Page, phrases: Phrases, state: string): Promise<URL> {
    await page.goto(authorizeUrl(state));
    await page.waitForURL('**/user/loginSSO?**');
    expect(new URL(page.url()).searchParams.get('realm_id')).toBe(REALM);
    // the client's note, as text: its markup is shown, never rendered
    const tips = page.locator('[data-testid=sso-tips]');
    await tips.waitFor();
    expect(await tips.innerText()).toBe(TIPS);
    expect(await tips.locator('b').count()).toBe(0);
    await page.getByText(phrases.consent.continue_to.replace('{{client}}', 'Team Planner')).waitFor();
    expect(await page.locator('[data-testid=sso-back]').getAttribute('href')).toBe(LOGIN_URL);
    expect(await page.locator('[data-testid=to-register]').getAttribute('href')).toBe(REGIST_URL);
    await page.mouse.move(0, 0);
    await checkScreen(page, 'login-tips');

    await signIn(page, await newPerson(), PASSWORD);
    await page.waitForURL('**/user/consent?**');
    const scopes = page.locator('[data-testid=consent-scopes] li');
    await scopes.first().waitFor();
    expect(await scopes.allTextContents()).toEqual([phrases.consent.scope_openid, phrases.consent.scope_profile, phrases.consent.scope_email]);
    await page.getByRole('heading', { name: phrases.consent.title.replace('{{client}}', 'Team Planner') }).waitFor();
    await page.mouse.move(0, 0);
    await checkScreen(page, 'consent');
    await page.locator('[data-testid=consent-approve]').click();
    await page.waitForURL(`${redirectUri()}?**`);
    return arrival(state);
  }

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    app = await startApp();
    const login = await fetch(`${server.baseUrl}/api/users/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
    });
    adminToken = ((await login.json()) as { data: { token: string } }).data.token;
    const realm = await call('POST', '/api/users/realms', {
      realmId: REALM,
      domain: `${REALM}.example.com`,
      description: 'an application realm',
      // a test cannot read an image captcha (harness.ts)
      settings: { captchaPolicy: 'after_failures' },
    });
    expect(realm.code, JSON.stringify(realm)).toBe(0);
    const client = await call('POST', clientPaths.list({ realmId: REALM }), {
      name: 'Team Planner',
      desc: 'a planning application',
      authCodeMulitUse: false,
      tokenExpirSec: 3600,
      refreshtokenExpirSec: 86400,
      refreshTokenRecreate: true,
      redirectUris: [redirectUri()],
      loginTips: TIPS,
      loginUrl: LOGIN_URL,
      registUrl: REGIST_URL,
      consentRequired: true,
    });
    expect(client.code, JSON.stringify(client)).toBe(0);
    clientId = client.data.client.clientId as string;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await server?.stop();
  });

  for (const [locale, phrases] of [
    ['zh-CN', zh],
    ['en-US', en],
    ['ar', ar],
  ] as const) {
    it(`${locale}: authorize → sign-in page with the client's tips → sign in → consent → the redirect URI with code, state and iss`, async () => {
      const context = await browser.newContext({ locale, baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } });
      const { page, watch } = await newWatchedPage(context);
      const state = `st-${locale}-${crypto.randomBytes(4).toString('hex')}`;
      const landed = await throughSignInAndConsent(page, phrases as Phrases, state);
      expect(landed.pathname).toBe('/cb');
      expect(landed.searchParams.get('code')).toMatch(/^[A-Za-z0-9]{43}$/);
      expect(landed.searchParams.get('iss')).toBe(`${server.baseUrl}/realms/${REALM}`);
      if (locale === 'ar') expect(watch.pageErrors).toEqual([]);

      if (locale === 'en-US') {
        // the SSO session: a second request comes straight back, no screen in between
        const again = `st-again-${crypto.randomBytes(4).toString('hex')}`;
        await page.goto(authorizeUrl(again, { scope: 'openid profile' }));
        await page.waitForURL(`${redirectUri()}?**`);
        expect((await arrival(again)).searchParams.get('code')).toBeTruthy();
        // prompt=consent asks again; refusing sends access_denied back
        const refused = `st-refused-${crypto.randomBytes(4).toString('hex')}`;
        await page.goto(authorizeUrl(refused, { prompt: 'consent' }));
        await page.waitForURL('**/user/consent?**');
        await page.locator('[data-testid=consent-deny]').click();
        await page.waitForURL(`${redirectUri()}?**`);
        const denied = await arrival(refused);
        expect(denied.searchParams.get('error')).toBe('access_denied');
        expect(denied.searchParams.get('code')).toBeNull();
      }
      expect(watch.pageErrors).toEqual([]);
      await context.close();
    });
  }

  for (const [locale, phrases] of [
    ['en-US', en],
    ['ar', ar],
  ] as const) {
    it(`${locale}: the provider's own pages — the error page of an unregistered redirect_uri (no redirect) and the sign-out confirmation`, async () => {
      const context = await browser.newContext({ locale, baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } });
      const { page, watch } = await newWatchedPage(context);
      const res = await page.goto(authorizeUrl('st-err', { redirect_uri: 'https://evil.example.net/cb' }));
      expect(res?.status()).toBe(400);
      expect(new URL(page.url()).pathname).toBe(`/realms/${REALM}/oauth/authorize`);
      await page.getByRole('heading', { name: phrases.consent.error_title }).waitFor();
      await checkScreen(page, 'error-page');

      await page.goto(`/realms/${REALM}/oauth/logout?client_id=${clientId}`);
      await page.getByRole('button', { name: phrases.consent.logout_confirm }).waitFor();
      await checkScreen(page, 'logout-confirm');
      await page.getByRole('button', { name: phrases.consent.logout_confirm }).click();
      await page.getByText(phrases.consent.logout_done).waitFor();
      expect(watch.pageErrors).toEqual([]);
      await context.close();
    });
  }

  it('SPEC §2 callback_uri link: a registered URI gets a code after sign-in and consent; an unregistered one is refused on the page, never followed', async () => {
    const context = await browser.newContext({ locale: 'en-US', baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } });
    const { page, watch } = await newWatchedPage(context);
    const link = (callbackUri: string, state: string) =>
      `/user/loginSSO?${new URLSearchParams({ client_id: clientId, callback_uri: callbackUri, state, realm_id: REALM }).toString()}`;
    // an unregistered callback_uri: refused after sign-in, the browser stays here
    await page.goto(link('https://evil.example.net/cb', 'cb-evil'));
    await signIn(page, await newPerson(), PASSWORD);
    await page.locator('[data-testid=sso-error]').filter({ hasText: en.errors.oauth_callback_refused }).waitFor();
    expect(new URL(page.url()).origin).toBe(server.baseUrl);
    // the registered one (the console session is reused: no second sign-in)
    const state = `cb-${crypto.randomBytes(4).toString('hex')}`;
    await page.goto(link(redirectUri(), state));
    await page.waitForURL('**/user/consent?**');
    await page.locator('[data-testid=consent-approve]').click();
    await page.waitForURL(`${redirectUri()}?**`);
    const landed = await arrival(state);
    expect(landed.searchParams.get('code')).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(app.hits.some((u) => u.searchParams.get('state') === 'cb-evil')).toBe(false);
    expect(watch.pageErrors).toEqual([]);
    await context.close();
  });
});
