/**
 * The device authorization grant in Chromium (RFC 8628, issue 12). A "device" (this test, over
 * HTTP) asks for a device code and polls the token endpoint at its interval while a person in
 * Chromium opens the verification URI, is sent through the sign-in page, compares the user
 * code and approves it on /device; the poll then gets its tokens. A second device is denied
 * after its code was typed by hand (the poll gets access_denied), a third is approved in
 * Arabic after a wrong code was refused. The screens are checked at 1440 and 390 px in en-US,
 * zh-CN and Arabic (axe, layout). Screenshots: test-results/browser/device-<nn>-<locale>-<step>.png.
 */
import { clientPaths, DEVICE_GRANT_TYPE, devicePaths, personPaths } from '@umbo/contracts';
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import { zhCN as zh } from '@umbo/contracts/phrases/zh-CN/index';
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
  type PageWatch,
  type RunningServer,
} from './harness';
import { checkScreen } from './screen-checks';

const PERSON = { username: `device_${Date.now() % 100000}`, password: 'Device-Pass-8642' };

interface DeviceStart {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

interface PollResult {
  status: number;
  body: Record<string, unknown>;
  /** how many polls it took, and how many were told to slow down */
  polls: number;
  slowDowns: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe.skipIf(!browserPresent && !browserRequired)('device authorization grant in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let adminToken = '';
  let personId = '';
  let clientId = '';

  async function call(method: string, path: string, body?: object) {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: body ? JSON.stringify(body) : undefined,
    });
    return (await res.json()) as { code: number; data: any };
  }

  /** The device: asks for its codes (RFC 8628 §3.1). */
  async function startDevice(realmId = 'master', client = clientId): Promise<DeviceStart> {
    const res = await fetch(`${server.baseUrl}/realms/${realmId}/oauth/device_authorization`, {
      method: 'POST',
      headers: FORM,
      body: new URLSearchParams({ client_id: client, scope: 'openid profile' }).toString(),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as DeviceStart;
  }

  /** The device: polls at its interval until the user decided (RFC 8628 §3.4–3.5), as a device program does. */
  async function pollUntilDecided(start: DeviceStart, realmId = 'master', client = clientId): Promise<PollResult> {
    let interval = start.interval;
    let polls = 0;
    let slowDowns = 0;
    const deadline = Date.now() + 100_000;
    for (;;) {
      await sleep(interval * 1000);
      const res = await fetch(`${server.baseUrl}/realms/${realmId}/oauth/token`, {
        method: 'POST',
        headers: FORM,
        body: new URLSearchParams({ grant_type: DEVICE_GRANT_TYPE, device_code: start.device_code, client_id: client }).toString(),
      });
      polls += 1;
      const body = (await res.json()) as Record<string, unknown>;
      if (body.error === 'slow_down') {
        slowDowns += 1;
        interval += 5;
      }
      if (res.status === 200 || !['authorization_pending', 'slow_down'].includes(String(body.error)) || Date.now() > deadline) {
        return { status: res.status, body, polls, slowDowns };
      }
    }
  }

  /** A person in a browser of this language, signed in through the page the guard sends them to. */
  async function person(locale: string, firstPath: string, who = PERSON): Promise<{ page: Page; watch: PageWatch }> {
    const context = await browser.newContext({ locale, baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } });
    const opened = await newWatchedPage(context);
    await opened.page.goto(firstPath);
    await opened.page.waitForURL('**/user/loginSSO?**');
    expect(decodeURIComponent(new URL(opened.page.url()).searchParams.get('redirect') ?? '')).toContain('/device');
    await signIn(opened.page, who.username, who.password);
    await opened.page.waitForURL('**/device**');
    return opened;
  }

  const review = (page: Page) => page.locator('[data-testid=device-review]');
  const readClaims = (jwt: unknown) => JSON.parse(Buffer.from(String(jwt).split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    const login = await fetch(`${server.baseUrl}/api/users/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
    });
    adminToken = ((await login.json()) as { data: { token: string } }).data.token;
    const made = await call('POST', personPaths.list('master'), { ...PERSON, forcePassword: false });
    expect(made.code, JSON.stringify(made)).toBe(0);
    personId = made.data.id as string;
    // a public client of a TV app: device grant only, no secret (RFC 8628 §3.1 public clients)
    const client = await call('POST', clientPaths.list({ realmId: 'master' }), {
      name: 'Living-room TV',
      desc: 'a television app',
      authCodeMulitUse: false,
      tokenExpirSec: 3600,
      refreshtokenExpirSec: 86400,
      refreshTokenRecreate: true,
      redirectUris: ['https://tv.example.com/cb'],
      grantTypes: [DEVICE_GRANT_TYPE, 'refresh_token'],
      scopes: ['openid', 'profile', 'offline_access'],
      tokenEndpointAuthMethod: 'none',
    });
    expect(client.code, JSON.stringify(client)).toBe(0);
    clientId = client.data.client.clientId as string;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('en-US: the device polls while the person signs in from the link and approves; the poll then gets tokens', async () => {
    const start = await startDevice();
    expect(start.verification_uri).toBe(`${server.baseUrl}/device`);
    const polling = pollUntilDecided(start);
    const { page, watch } = await person('en-US', start.verification_uri_complete.replace(server.baseUrl, ''));
    // the code from the link is looked up at once and shown to be compared with the device's screen
    await review(page).waitFor();
    expect(await page.locator('[data-testid=device-code]').textContent()).toBe(start.user_code);
    expect(await page.locator('[data-testid=device-client-name]').textContent()).toBe('Living-room TV');
    const scopes = await page.locator('[data-testid=device-scopes] li').allTextContents();
    expect(scopes.map((s) => s.trim())).toEqual([`${en.device.scope_openid} (openid)`, `${en.device.scope_profile} (profile)`]);
    await page.getByRole('heading', { name: en.device.review_title }).waitFor();
    await page.mouse.move(0, 0);
    await checkScreen(page, 'review');

    await page.locator('[data-testid=device-approve]').click();
    await page.locator('[data-testid=device-approved]').waitFor();
    expect(await page.getByText(en.device.approved_title).count()).toBe(1);
    await page.mouse.move(0, 0);
    await checkScreen(page, 'approved');

    const result = await polling;
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({ token_type: 'Bearer', scope: 'openid profile' });
    expect(result.slowDowns).toBe(0);
    expect(readClaims(result.body.access_token)).toMatchObject({ sub: personId, client_id: clientId });
    expect(watch.pageErrors).toEqual([]);
    await page.context().close();
  });

  it('zh-CN: the code typed by hand (lower case, no dash) on /device, then denied; the poll gets access_denied', async () => {
    const start = await startDevice();
    const polling = pollUntilDecided(start);
    const { page, watch } = await person('zh-CN', '/device');
    await page.locator('[data-testid=device-code-input]').waitFor();
    await page.getByText(zh.device.intro).waitFor();
    await checkScreen(page, 'enter-code');
    await page.locator('[data-testid=device-code-input]').fill(start.user_code.replace('-', '').toLowerCase());
    // the field shows it as the device does
    expect(await page.locator('[data-testid=device-code-input]').inputValue()).toBe(start.user_code);
    await page.locator('[data-testid=device-continue]').click();
    await review(page).waitFor();
    await page.getByText(zh.device.warning).waitFor();
    await page.mouse.move(0, 0);
    await checkScreen(page, 'review');
    await page.locator('[data-testid=device-deny]').click();
    await page.locator('[data-testid=device-denied]').waitFor();
    await page.getByText(zh.device.denied_title).waitFor();
    await page.mouse.move(0, 0);
    await checkScreen(page, 'denied');
    const result = await polling;
    expect(result).toMatchObject({ status: 400, body: { error: 'access_denied' } });
    expect(watch.pageErrors).toEqual([]);
    await page.context().close();
  });

  it('ar: a wrong code is refused in place (right to left), the right one approved; the poll gets tokens', async () => {
    const start = await startDevice();
    const polling = pollUntilDecided(start);
    const { page, watch } = await person('ar', '/device');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const input = page.locator('[data-testid=device-code-input]');
    // not a code at all (vowels): the form says what a code looks like
    await input.fill('AEIO-UAEI');
    await page.locator('[data-testid=device-continue]').click();
    await page.getByText(ar.device.code_rule).waitFor();
    // a well-formed code nobody was given: the server's answer, in Arabic
    await input.fill(start.user_code === 'BBBB-BBBB' ? 'CCCC-CCCC' : 'BBBB-BBBB');
    await page.locator('[data-testid=device-continue]').click();
    await page.locator('[data-testid=device-error]').waitFor();
    expect(await page.locator('[data-testid=device-error]').textContent()).toContain(ar.errors.device_code_unknown);
    await page.mouse.move(0, 0);
    await checkScreen(page, 'wrong-code');
    await input.fill(start.user_code);
    await page.locator('[data-testid=device-continue]').click();
    await review(page).waitFor();
    await page.getByText(ar.device.review_title).waitFor();
    await page.mouse.move(0, 0);
    await checkScreen(page, 'review');
    await page.locator('[data-testid=device-approve]').click();
    await page.locator('[data-testid=device-approved]').waitFor();
    await checkScreen(page, 'approved');
    const result = await polling;
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(watch.pageErrors).toEqual([]);
    await page.context().close();
  });

  it('a device of another realm: its link signs the person in to that realm, and only there is the code known', async () => {
    const realmId = `tv${Date.now() % 100000}`;
    const realm = await call('POST', '/api/users/realms', {
      realmId,
      domain: `${realmId}.example.com`,
      description: 'the living room',
      settings: { captchaPolicy: 'after_failures' },
    });
    expect(realm.code, JSON.stringify(realm)).toBe(0);
    const member = { username: `viewer_${Date.now() % 100000}`, password: 'Realm-Member-5791' };
    const made = await call('POST', personPaths.list(realmId), { ...member, forcePassword: false });
    expect(made.code, JSON.stringify(made)).toBe(0);
    const client = await call('POST', clientPaths.list({ realmId }), {
      name: 'Bedroom TV',
      desc: 'a television app',
      authCodeMulitUse: false,
      tokenExpirSec: 3600,
      refreshtokenExpirSec: 86400,
      refreshTokenRecreate: true,
      redirectUris: ['https://tv.example.com/cb'],
      grantTypes: [DEVICE_GRANT_TYPE],
      scopes: ['openid', 'profile'],
      tokenEndpointAuthMethod: 'none',
    });
    expect(client.code, JSON.stringify(client)).toBe(0);
    const tvClient = client.data.client.clientId as string;
    const start = await startDevice(realmId, tvClient);
    expect(start.verification_uri).toBe(`${server.baseUrl}/device?realm_id=${realmId}`);
    // the master administrator does not know it: a code of another realm reads as unknown
    expect((await call('GET', `${devicePaths.device}?user_code=${start.user_code}`)).code).toBe(1090);
    const polling = pollUntilDecided(start, realmId, tvClient);
    const { page, watch } = await person('en-US', start.verification_uri_complete.replace(server.baseUrl, ''), member);
    await review(page).waitFor();
    expect(await page.locator('[data-testid=device-client-name]').textContent()).toBe('Bedroom TV');
    await page.locator('[data-testid=device-approve]').click();
    await page.locator('[data-testid=device-approved]').waitFor();
    const result = await polling;
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(readClaims(result.body.access_token)).toMatchObject({ sub: made.data.id, iss: `${server.baseUrl}/realms/${realmId}` });
    expect(watch.pageErrors).toEqual([]);
    await page.context().close();
  });
});
