/**
 * The shared cloud header (SPEC §1, issue 2): loaded into a 54 px area when configured, never
 * on the sign-in page, and replaced by the built-in header when it fails or is late. The
 * config and the script are stubbed in the browser (same origin, so the real CSP allows them).
 */
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
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
  type PageWatch,
  type RunningServer,
} from './harness';

/** A browser that prefers Chinese: the console follows the browser's language when none is chosen. */
const ZH_BROWSER = 'zh-CN';

const SCRIPT = '/cloud-header-stub.js';
const WORKING = `window.UmboCloudHeader = { mount(el, ctx) {
  const nav = document.createElement('nav');
  nav.className = 'stub-cloud-nav';
  nav.textContent = 'Cloud navigation (' + ctx.locale + ')';
  el.appendChild(nav);
} };`;

describe.skipIf(!browserPresent && !browserRequired)('shared cloud header', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watch: PageWatch;
  let scriptRequests = 0;
  let scriptBody: string | undefined = WORKING;

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ locale: ZH_BROWSER, baseURL: server.baseUrl, viewport: { width: 1280, height: 800 } });
    ({ page, watch } = await newWatchedPage(context));
    await page.route('**/project.config.json?*', async (route: Route) => {
      const real = (await (await route.fetch()).json()) as Record<string, unknown>;
      await route.fulfill({ json: { ...real, header: { globalScript: SCRIPT, chinaScript: '', chinaHosts: [], timeoutMs: 1500 } } });
    });
    await page.route(`**${SCRIPT}`, async (route: Route) => {
      scriptRequests += 1;
      if (scriptBody === undefined) await route.fulfill({ status: 404, body: '' });
      else await route.fulfill({ contentType: 'text/javascript', body: scriptBody });
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('is not loaded where credentials are typed', async () => {
    await page.goto('/user/loginSSO');
    await page.locator('[data-testid=login-form]').waitFor();
    await signIn(page, 'admin', 'wrong-password');
    await page.locator('[data-testid=login-error]').waitFor();
    expect(scriptRequests).toBe(0);
  });

  it('fills the 54 px area above the built-in header once it mounts', async () => {
    await signIn(page, 'admin', server.adminPassword);
    await waitForShell(page);
    const area = page.locator('[data-testid=cloud-header][data-state=ready]');
    await area.waitFor();
    expect((await area.boundingBox())!.height).toBe(54);
    expect(await area.textContent()).toBe('Cloud navigation (zh-CN)');
    expect(await page.locator('.shell__header').count()).toBe(1);
    expect(scriptRequests).toBe(1);
    await screenshot(page, 'cloud-header');
  });

  it('gives way to the built-in header when the script never mounts', async () => {
    scriptBody = '/* loads, but registers nothing */';
    await page.reload();
    await waitForShell(page);
    await expect.poll(() => page.locator('[data-testid=cloud-header]').count(), { timeout: 5000 }).toBe(0);
    expect(await page.locator('.shell__header').isVisible()).toBe(true);
  });

  it('gives way to the built-in header when the script is missing', async () => {
    scriptBody = undefined;
    await page.reload();
    await waitForShell(page);
    await expect.poll(() => page.locator('[data-testid=cloud-header]').count(), { timeout: 5000 }).toBe(0);
    await screenshot(page, 'cloud-header-fallback');
  });

  it('caused no CSP violation or page error', () => {
    expect(watch.cspViolations).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
  });
});
