/**
 * How the console behaves when things go wrong (SPEC §4, §8, §9): an expired session, a
 * current-user answer without roles, and a screen whose code does not arrive.
 */
import { en } from '@umbo/contracts/phrases/en/index';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signIn, waitForShell } from './actions';
import {
  assertPrerequisites,
  browserPresent,
  browserRequired,
  expectNoCspViolations,
  launchBrowser,
  newWatchedPage,
  screenshot,
  startServer,
  type RunningServer,
} from './harness';

describe.skipIf(!browserPresent && !browserRequired)('console failure handling', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  /** A fresh browser profile, in English so the texts below are the reference phrases. */
  async function freshPage() {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    await context.addInitScript(() => localStorage.setItem('app_language', JSON.stringify({ value: 'en-US', expire: null })));
    return newWatchedPage(context);
  }

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.stop();
  });

  it('on a 401 says so, signs out and reloads into sign-in after 1.5 s', async () => {
    const { page, watch } = await freshPage();
    await page.goto('/user/loginSSO');
    // A token the server does not know, as after a server-side revocation.
    await page.evaluate(() => localStorage.setItem('access_token', JSON.stringify({ value: 'revoked-token', expire: Date.now() + 60_000 })));
    await page.goto('/account/center');
    await page.locator('.ant-notification-notice').filter({ hasText: en.http.unauthorized_desc }).waitFor();
    await screenshot(page, 'session-expired');
    await page.waitForURL('**/user/loginSSO?redirect=%2Faccount%2Fcenter*', { timeout: 10_000 });
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    expect(watch.pageErrors).toEqual([]);
  });

  it('signs out when the current user has no roles (SPEC §4)', async () => {
    const { page } = await freshPage();
    await page.route('**/api/perm/user/info', async (route) => {
      const real = (await (await route.fetch()).json()) as { data: Record<string, unknown> };
      await route.fulfill({ json: { ...real, data: { ...real.data, roles: [] } } });
    });
    await page.goto('/user/loginSSO');
    await signIn(page, 'admin', server.adminPassword);
    await page.locator('.ant-message-notice').filter({ hasText: en.http.roles_missing }).waitFor();
    await page.waitForURL('**/user/loginSSO');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await screenshot(page, 'roles-missing');
  });

  it('signs out when the roles carry no permission at all (SPEC §4)', async () => {
    const { page } = await freshPage();
    await page.route('**/api/perm/user/info', async (route) => {
      const response = await route.fetch();
      const real = (await response.json()) as { data?: { roles: Record<string, unknown>[] } };
      // Only a signed-in answer has roles to empty; a refusal (after the sign-out) passes as it is.
      if (!real.data) return route.fulfill({ response });
      await route.fulfill({ json: { ...real, data: { ...real.data, roles: real.data.roles.map((r) => ({ ...r, permissions: [] })) } } });
    });
    await page.goto('/user/loginSSO');
    await signIn(page, 'admin', server.adminPassword);
    await page.locator('.ant-message-notice').filter({ hasText: en.http.roles_missing }).waitFor();
    await page.waitForURL('**/user/loginSSO');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    expect(await page.locator('[data-testid=nav-menu]').count()).toBe(0);
  });

  it('shows a retry page when a screen cannot be loaded, and the retry works', async () => {
    const { page, watch } = await freshPage();
    await page.goto('/user/loginSSO');
    await signIn(page, 'admin', server.adminPassword);
    await waitForShell(page);
    // The security screen's code fails once.
    let blocked = true;
    await page.route('**/assets/security-page-*.js', (route) => (blocked ? route.abort('connectionreset') : route.continue()));
    await page.locator('[data-testid=nav-menu]').getByRole('link', { name: en.menu.security }).click();
    await page.locator('[data-testid=chunk-error]').waitFor();
    expect(await page.locator('[data-testid=nav-menu]').isVisible()).toBe(true);
    await screenshot(page, 'chunk-failed');
    blocked = false;
    await page.locator('[data-testid=chunk-error]').getByRole('button', { name: en.pages.retry }).click();
    await page.getByText(en.account.sessions_title).waitFor();
    expect(watch.cspViolations).toEqual([]);
  });
});
