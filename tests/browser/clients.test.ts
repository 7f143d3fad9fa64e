/**
 * Issue 12's console pages in Chromium, the way administrators, developers and users use them:
 * a client created through the form (SPEC §5: the two yes/no choices must be made; the
 * multi-use warning), its secret shown once, edited, a sub client added (a taken id answers
 * "Sub-client ID already exists" under the field), the secret made anew; the developer page
 * with the realm's discovery URL and copyable samples; OAuth records listed and revoked by an
 * administrator and by the user who granted them. A client named like markup and a redirect
 * URL carrying quotes render inert (A-41: no dialog, no element made from them).
 * Every new screen passes checkScreen at 1440 and 390 px in en-US, zh-CN and ar.
 * Screenshots: test-results/browser/clients-<nn>-<locale>-<step>.png.
 */
import { clientPaths } from '@umbo/contracts/clients';
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import type { Phrases } from '@umbo/contracts/phrases/types';
import { zhCN as zh } from '@umbo/contracts/phrases/zh-CN/index';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { confirmOk, settle, signInWithCaptcha } from './actions';
import { assertPrerequisites, browserPresent, browserRequired, expectNoCspViolations, launchBrowser, newWatchedPage } from './harness';
import { startInProcessServer, type InProcessServer } from './in-process';
import { checkScreen } from './screen-checks';

const C = en.clients;
/** text that would run script if it were ever rendered as HTML. */
const XSS_NAME = '"><img src=x onerror=alert(1)>';
/** A registrable redirect URL (canonical, https) whose quotes would break out of an HTML attribute. */
const XSS_URI = "https://app.example.com/cb'onmouseover='alert(1)";
const PERSON = { username: 'oauth_user', password: 'Person-Pass-2468' };
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '');

describe.skipIf(!browserPresent && !browserRequired)('clients, developer page and OAuth records in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: InProcessServer;
  let browser: Browser;
  let token = '';
  const dialogs: string[] = [];
  const contexts: BrowserContext[] = [];
  /** The person's grants, by client name: (account, client row) for ctx.repos.oauthConsents. */
  const grants = new Map<string, { accountId: string; clientRef: string }>();
  const grant = (name: string) => server.ctx.repos.oauthConsents.upsert({ realmId: 'master', ...grants.get(name)!, scope: 'openid profile', now: Date.now() });

  async function call(method: string, path: string, body?: unknown, bearer = token) {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as { code: number; data: any };
  }

  async function apiToken(username: string, password: string): Promise<string> {
    const { answer: captcha, serialNo } = await server.ctx.services.captcha.issue('master');
    const res = await fetch(`${server.baseUrl}/api/users/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password, realm_id: 'master', captcha, serialNo }),
    });
    const answer = (await res.json()) as { data: { token: string } };
    return answer.data.token;
  }

  /** A signed-in page in `locale`, through the sign-in form (its captcha read in-process). */
  async function open(locale: string, path: string, who = { username: 'admin', password: server.adminPassword }): Promise<Page> {
    const context = await browser.newContext({
      locale,
      baseURL: server.baseUrl,
      viewport: { width: 1440, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    contexts.push(context);
    const { page } = await newWatchedPage(context);
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await signInWithCaptcha(page, who.username, who.password, server.captchaAnswer);
    await page.goto(path);
    return page;
  }

  const rows = (page: Page) => page.locator('[data-testid=client-row]');
  const row = (page: Page, name: string) => rows(page).filter({ has: page.locator('[data-testid=client-name]', { hasText: name }) });
  /** The open antd confirmation's OK button. */
  const menuItem = async (page: Page, name: string, action: string) => {
    await settle(page);
    await row(page, name).first().locator('[data-testid=client-more]').click();
    await settle(page);
    await page.locator(`.ant-dropdown:visible [data-testid=client-${action}]`).click();
  };

  /** Fills the create form's required fields; the two SPEC §5 choices are left to the caller. */
  async function fillNewClient(page: Page, name: string) {
    await page.locator('[data-testid=client-create]').click();
    await page.locator('[data-testid=client-form]').waitFor();
    await page.locator('#client-form-name').fill(name);
    await page.locator('#client-form-desc').fill('robot companion app');
    await page.locator('#client-form-redirect-0').fill('https://robot.example.com/callback');
  }

  beforeAll(async () => {
    assertPrerequisites();
    server = await startInProcessServer();
    token = await apiToken('admin', server.adminPassword);
    const person = await call('POST', '/api/users/realms/master/accounts', { username: PERSON.username, password: PERSON.password, forcePassword: false });
    expect(person.code, JSON.stringify(person)).toBe(0);
    // Two clients the person has authorized, one named like markup with a quote-carrying redirect URL.
    const base = { desc: 'client for records', authCodeMulitUse: false, refreshTokenRecreate: true, tokenExpirSec: 600, refreshtokenExpirSec: 86400 };
    for (const [name, uri] of [
      ['Robot app', 'https://robot.example.com/cb'],
      [XSS_NAME, XSS_URI],
    ] as const) {
      const made = await call('POST', clientPaths.list({ realmId: 'master' }), { ...base, name, redirectUris: [uri] });
      expect(made.code, JSON.stringify(made)).toBe(0);
      const stored = await server.ctx.repos.clients.findByClientId('master', made.data.client.clientId);
      grants.set(name, { accountId: person.data.id, clientRef: stored!.id });
      await grant(name);
    }
    // A client the administrator owns as a developer (user/client), for the developer page.
    const own = await call('POST', clientPaths.list('own'), {
      ...base,
      name: 'Dev console app',
      clientId: 'dev-console-app',
      redirectUris: ['https://dev.example.com/cb'],
      grantTypes: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'],
    });
    expect(own.code, JSON.stringify(own)).toBe(0);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  it('creates a client through the form: both choices required, the multi-use warning, the secret shown once', async () => {
    const page = await open('en-US', '/account/client');
    await page.locator('[data-testid=client-page]').waitFor();
    await expect.poll(() => row(page, 'Robot app').count()).toBe(1);
    // the default client of master exists and is marked
    await page.getByText(C.default_client).first().waitFor();
    await checkScreen(page, 'client-list-en');

    await fillNewClient(page, 'Companion app');
    const form = page.locator('[data-testid=client-form]');
    // SPEC §5: nothing is chosen for the administrator
    expect(await form.locator('[data-testid=client-multi-use] input:checked').count()).toBe(0);
    await page.locator('[data-testid=client-save]').click();
    await expect.poll(() => form.getByText(C.choose).count()).toBe(2);
    await form.locator('[data-testid=client-multi-use]').getByText(C.yes).click();
    await page.locator('[data-testid=client-multi-use-warning]').getByText(C.auth_code_multi_warning).waitFor();
    await checkScreen(page, 'client-form-en');
    await form.locator('[data-testid=client-multi-use]').getByText(C.no).click();
    await expect.poll(() => page.locator('[data-testid=client-multi-use-warning]').count()).toBe(0);
    await form.locator('[data-testid=client-recreate]').getByText(C.yes).click();
    const clientId = await page.locator('#client-form-client-id').inputValue();
    expect(clientId).toMatch(/^[A-Za-z0-9]{32}$/);
    await page.locator('[data-testid=client-save]').click();

    const dialog = page.locator('[data-testid=secret-dialog]');
    await dialog.getByText(C.secret_once).waitFor();
    const secret = (await dialog.locator('[data-testid=secret-value-text]').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(await dialog.locator('[data-testid=secret-client-id-text]').textContent()).toBe(clientId);
    await dialog.locator('[data-testid=secret-value-copy]').click();
    await dialog.locator('[data-testid=secret-value-copy]').getByText(C.copied).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    // the pointer leaves the button (a hovered button is not the screen's resting state)
    await page.mouse.move(0, 0);
    await checkScreen(page, 'client-secret-en');
    await page.locator('[data-testid=secret-done]').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => row(page, 'Companion app').count()).toBe(1);
    // shown once: the API never answers it again
    const stored = await call('GET', clientPaths.one({ realmId: 'master' }, clientId));
    expect(stored.data).toMatchObject({ clientId, authCodeMulitUse: false, refreshTokenRecreate: true, hasSecret: true });
    expect(JSON.stringify(stored.data)).not.toContain(secret);
  });

  it('edits a client: the client id stays, the change is listed', async () => {
    const page = await open('en-US', '/account/client');
    await row(page, 'Companion app').locator('[data-testid=client-edit]').click();
    await page.locator('[data-testid=client-form]').waitFor();
    expect(await page.locator('#client-form-client-id').isDisabled()).toBe(true);
    await page.locator('#client-form-desc').fill('edited description');
    await page.locator('[data-testid=client-save]').click();
    await page.locator('[data-testid=client-form-drawer]').waitFor({ state: 'detached' });
    await expect.poll(() => row(page, 'Companion app').textContent()).toContain('edited description');
  });

  it('adds a sub client: a taken id says "Sub-client ID already exists"; the sub client is listed under its parent', async () => {
    const page = await open('en-US', '/account/client');
    await expect.poll(() => row(page, 'Companion app').count()).toBe(1);
    await menuItem(page, 'Companion app', 'sub');
    const dialog = page.locator('[data-testid=sub-client-dialog]');
    await dialog.locator('#sub-client-id').fill('dev-console-app');
    await dialog.locator('#sub-client-name').fill('companion_sub');
    await dialog.locator('#sub-client-desc').fill('sub client for a robot');
    await dialog.locator('#sub-client-redirect-0').fill('https://sub.example.com/cb');
    await dialog.locator('#sub-client-allow-token').check();
    await dialog.locator('.ant-btn-primary').click();
    await dialog.getByText(en.errors.sub_client_id_taken).waitFor();
    await page.mouse.move(0, 0);
    await page.mouse.move(0, 0);
    await checkScreen(page, 'sub-client-taken-en');
    await dialog.locator('#sub-client-id').fill('companion-sub-1');
    await dialog.locator('.ant-btn-primary').click();
    await page.locator('[data-testid=secret-done]').waitFor();
    await page.locator('[data-testid=secret-done]').click();
    await row(page, 'Companion app').locator('.ant-table-row-expand-icon').click();
    await expect.poll(() => row(page, 'companion_sub').count()).toBe(1);
    expect((await call('GET', clientPaths.one({ realmId: 'master' }, 'companion-sub-1'))).data).toMatchObject({ allowToken: true, allowAuthCode: false });
    await checkScreen(page, 'client-list-sub-en');
  });

  it('makes a new secret after the confirmation, shown once', async () => {
    const page = await open('en-US', '/account/client');
    await expect.poll(() => row(page, 'Robot app').count()).toBe(1);
    await menuItem(page, 'Robot app', 'secret');
    await page.locator('.ant-modal-confirm-title', { hasText: fill(C.confirm_regenerate, { name: 'Robot app' }) }).waitFor();
    await confirmOk(page);
    const dialog = page.locator('[data-testid=secret-dialog]');
    await dialog.getByText(C.secret_once).waitFor();
    expect(await dialog.locator('[data-testid=secret-value-text]').textContent()).toMatch(/^[A-Za-z0-9]{32}$/);
    await page.locator('[data-testid=secret-done]').click();
  });

  it('disables, enables and deletes a client, each after its confirmation', async () => {
    const made = await call('POST', clientPaths.list({ realmId: 'master' }), {
      name: 'Short-lived app',
      desc: 'deleted by the test',
      authCodeMulitUse: false,
      refreshTokenRecreate: true,
      tokenExpirSec: 600,
      refreshtokenExpirSec: 86400,
      redirectUris: ['https://short.example.com/cb'],
    });
    const id: string = made.data.client.clientId;
    const page = await open('en-US', '/account/client');
    const status = () => row(page, 'Short-lived app').locator('[data-testid=client-status]').textContent();
    await expect.poll(status).toBe(C.enabled);
    await menuItem(page, 'Short-lived app', 'disable');
    await page.locator('.ant-modal-confirm-title', { hasText: fill(C.confirm_disable, { name: 'Short-lived app' }) }).waitFor();
    await confirmOk(page);
    await expect.poll(status).toBe(C.disabled);
    await menuItem(page, 'Short-lived app', 'enable');
    await confirmOk(page);
    await expect.poll(status).toBe(C.enabled);
    await menuItem(page, 'Short-lived app', 'delete');
    await page.locator('.ant-modal-confirm-title', { hasText: fill(C.confirm_delete, { name: 'Short-lived app' }) }).waitFor();
    await confirmOk(page);
    await expect.poll(() => row(page, 'Short-lived app').count()).toBe(0);
    expect((await call('GET', clientPaths.one({ realmId: 'master' }, id))).code).not.toBe(0);
    // the realm's default client (public: no secret) offers neither
    await row(page, 'master').locator('[data-testid=client-more]').click();
    await page.locator('.ant-dropdown:visible [data-testid=client-sub]').waitFor();
    expect(await page.locator('.ant-dropdown:visible [data-testid=client-delete], .ant-dropdown:visible [data-testid=client-disable]').count()).toBe(0);
  });

  it('shows a client named like markup, and its redirect URL, as text (A-41)', async () => {
    const page = await open('en-US', '/account/client');
    await expect.poll(() => row(page, XSS_NAME).count()).toBe(1);
    expect(await page.locator('[data-testid=client-page] img').count()).toBe(0);
    await row(page, XSS_NAME).locator('[data-testid=client-name]').click();
    const drawer = page.locator('[data-testid=client-info-drawer]');
    expect(await drawer.locator('[data-testid=client-info-name]').textContent()).toBe(XSS_NAME);
    expect(await drawer.locator('[data-testid=client-info-redirects] li').textContent()).toBe(XSS_URI);
    expect(await drawer.locator('img, [onmouseover]').count()).toBe(0);
    await checkScreen(page, 'client-info-en');
    // the info is a routed modal: the address opens it again
    expect(new URL(page.url()).searchParams.get('modal')).toBe('info');
    await page.reload();
    await drawer.locator('[data-testid=client-info-name]').waitFor();
    expect(dialogs).toEqual([]);
  });

  it('shows the realm clients from the domain list', async () => {
    const page = await open('en-US', '/account/domain');
    const link = page.locator('[data-testid=realm-row]').filter({ hasText: 'master' }).locator('[data-testid=realm-clients]');
    expect(await link.getAttribute('href')).toBe('/account/client?realmId=master');
    await link.click();
    await expect.poll(() => row(page, 'Robot app').count()).toBe(1);
  });

  it('developer page: the discovery URL, the endpoints and copyable samples for one of my clients', async () => {
    const page = await open('en-US', '/user/developer');
    const discovery = page.locator('[data-testid=dev-discovery-text]');
    await expect.poll(() => discovery.textContent()).toBe(`${server.baseUrl}/realms/master/.well-known/openid-configuration`);
    expect(await page.locator('[data-testid=dev-token_endpoint-text]').textContent()).toBe(`${server.baseUrl}/realms/master/oauth/token`);
    await expect.poll(() => page.locator('[data-testid=dev-sample_code-text]').textContent()).toContain(`-u 'dev-console-app:'"$CLIENT_SECRET"`);
    const authorize = new URL((await page.locator('[data-testid=dev-sample_authorize-text]').textContent())!);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe('https://dev.example.com/cb');
    await page.locator('[data-testid=dev-sample_device-text]').waitFor();
    await page.locator('[data-testid=dev-discovery-copy]').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.baseUrl}/realms/master/.well-known/openid-configuration`);
    await page.mouse.move(0, 0);
    await checkScreen(page, 'developer-en');
    // the developer's own list (user/client)
    await page.goto('/user/client');
    await expect.poll(() => row(page, 'Dev console app').count()).toBe(1);
    await checkScreen(page, 'user-client-en');
  });

  it("an administrator lists the realm's OAuth records and revokes one", async () => {
    const page = await open('en-US', '/account/oauthList');
    const records = page.locator('[data-testid=record-row]');
    await expect.poll(() => records.count()).toBe(2);
    expect(await records.locator('[data-testid=record-account]').first().textContent()).toBe(PERSON.username);
    expect(await records.locator('[data-testid=record-client]').allTextContents()).toContain(XSS_NAME);
    await checkScreen(page, 'oauth-list-en');
    await records.filter({ hasText: 'Robot app' }).locator('[data-testid=record-revoke]').click();
    await page.locator('.ant-modal-confirm-title', { hasText: fill(C.rec_confirm_revoke, { client: 'Robot app', account: PERSON.username }) }).waitFor();
    await confirmOk(page);
    await expect.poll(() => records.count()).toBe(1);
    expect(dialogs).toEqual([]);
  });

  it('a user sees what they authorized and revokes it; then the empty state', async () => {
    const page = await open('en-US', '/user/oauth', PERSON);
    const records = page.locator('[data-testid=record-row]');
    await expect.poll(() => records.count()).toBe(1);
    expect(await records.locator('[data-testid=record-client]').textContent()).toBe(XSS_NAME);
    await checkScreen(page, 'my-oauth-en');
    await records.locator('[data-testid=record-revoke]').click();
    await confirmOk(page);
    await page.locator('[data-testid=records-empty]').getByText(C.rec_empty_own).waitFor();
    const personToken = await apiToken(PERSON.username, PERSON.password);
    expect((await call('GET', clientPaths.ownRecords, undefined, personToken)).data.total).toBe(0);
    await checkScreen(page, 'my-oauth-empty-en');
    expect(dialogs).toEqual([]);
  });

  it.each([
    ['zh-CN', zh],
    ['ar', ar],
  ] as const)('shows every new screen in %s', async (locale, phrases: Phrases) => {
    const P = phrases.clients;
    await grant('Robot app');
    const page = await open(locale, '/account/client');
    await expect.poll(() => page.locator('[data-testid=client-page] .ant-card-head-title').textContent()).toBe(P.title);
    await expect.poll(() => row(page, 'Robot app').count()).toBe(1);
    await checkScreen(page, `client-list-${locale}`);
    await fillNewClient(page, `App ${locale}`);
    const form = page.locator('[data-testid=client-form]');
    await form.locator('[data-testid=client-multi-use]').getByText(P.yes).click();
    await page.locator('[data-testid=client-multi-use-warning]').getByText(P.auth_code_multi_warning).waitFor();
    await checkScreen(page, `client-form-${locale}`);
    await form.locator('[data-testid=client-recreate]').getByText(P.yes).click();
    await page.locator('[data-testid=client-save]').click();
    await page.locator('[data-testid=secret-dialog]').getByText(P.secret_once).waitFor();
    await checkScreen(page, `client-secret-${locale}`);
    await page.locator('[data-testid=secret-done]').click();
    await menuItem(page, `App ${locale}`, 'sub');
    await page
      .locator('[data-testid=sub-client-dialog]')
      .getByText(fill(P.sub_title, { name: `App ${locale}` }))
      .waitFor();
    await checkScreen(page, `sub-client-${locale}`);
    await page.keyboard.press('Escape');
    await row(page, 'Robot app').locator('[data-testid=client-name]').click();
    await page.locator('[data-testid=client-info-drawer]').getByText(P.redirect_uris, { exact: true }).waitFor();
    await checkScreen(page, `client-info-${locale}`);

    await page.goto('/user/developer');
    await page.locator('[data-testid=dev-sample_code-text]').waitFor();
    await checkScreen(page, `developer-${locale}`);
    await page.goto('/user/client');
    await expect.poll(() => row(page, 'Dev console app').count()).toBe(1);
    await checkScreen(page, `user-client-${locale}`);
    await page.goto('/account/oauthList');
    await expect.poll(() => page.locator('[data-testid=record-row]').count()).toBeGreaterThan(0);
    await checkScreen(page, `oauth-list-${locale}`);
    await page.goto('/user/oauth');
    await page.locator('[data-testid=records-empty]').getByText(P.rec_empty_own).waitFor();
    await checkScreen(page, `my-oauth-${locale}`);
    expect(dialogs).toEqual([]);
  });
});
