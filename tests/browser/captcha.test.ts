/**
 * The image captcha of the password form (SPEC §5) against a server whose master realm asks
 * for it on every sign-in (the default). The answer is unknowable from a browser, so this
 * suite checks what the user sees and what a wrong answer does.
 */
import { zhCN as zh } from '@umbo/contracts/phrases/zh-CN/index';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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

describe.skipIf(!browserPresent && !browserRequired)('sign-in captcha', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer({ MASTER_CAPTCHA_POLICY: 'always' });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a captcha from the server, renews it on click and after a wrong answer', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    const { page, watch } = await newWatchedPage(context);
    await page.goto('/user/loginSSO');
    const image = page.locator('[data-testid=captcha-image] img');
    await image.waitFor();
    const first = await image.getAttribute('src');
    expect(first).toMatch(/^data:image\/png;base64,/);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await screenshot(page, 'captcha');

    await page.locator('[data-testid=captcha-image]').click();
    await expect.poll(() => image.getAttribute('src')).not.toBe(first);
    const second = await image.getAttribute('src');

    await page.locator('#login-username').fill('admin');
    await page.locator('#login-password').fill(server.adminPassword);
    await page.locator('[data-testid=login-submit]').click();
    // An empty answer is refused in the form; a wrong one by the server (4005).
    expect(await page.locator('#login-captcha-error').textContent()).toBe(zh.validation.required);
    await page.locator('#login-captcha').fill('0000');
    await page.locator('[data-testid=login-submit]').click();
    await page.locator('[data-testid=login-error]').filter({ hasText: zh.errors.captcha_wrong }).waitFor();
    await expect.poll(() => image.getAttribute('src')).not.toBe(second);
    expect(await page.locator('#login-captcha').inputValue()).toBe('');
    expect(new URL(page.url()).pathname).toBe('/user/loginSSO');
    await screenshot(page, 'captcha-wrong');
    expect([...watch.cspViolations, ...watch.pageErrors]).toEqual([]);
    await context.close();
  });
  it('renews the image by itself before its 2 minutes run out, and says that it expired', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    const { page, watch } = await newWatchedPage(context);
    await page.clock.install();
    await page.goto('/user/loginSSO');
    const image = page.locator('[data-testid=captcha-image] img');
    await image.waitFor();
    const first = await image.getAttribute('src');
    await page.locator('#login-captcha').fill('ABCD');
    // 1 min 46 s later: the image has 14 s left, so the page has fetched another one.
    await page.clock.fastForward(106_000);
    await expect.poll(() => image.getAttribute('src')).not.toBe(first);
    expect(await page.locator('[data-testid=login-info]').textContent()).toBe(zh.login.captcha_expired);
    expect(await page.locator('[data-testid=login-info]').textContent()).toBe('图片已过期，已换一张新的。');
    expect(await page.locator('#login-captcha').inputValue()).toBe('');
    await screenshot(page, 'captcha-renewed');
    expect([...watch.cspViolations, ...watch.pageErrors]).toEqual([]);
    await context.close();
  });

  it("a computer whose clock runs 5 minutes fast gets one image and the server's answer, not an endless renewal", async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    const { page, watch } = await newWatchedPage(context);
    // The page's clock (Date, timers, performance) runs on from 5 minutes ahead of the server's.
    await page.clock.install({ time: Date.now() + 5 * 60_000 });
    const fetched: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/users/auth/captcha') fetched.push(r.url());
    });
    await page.goto('/user/loginSSO');
    const image = page.locator('[data-testid=captcha-image] img');
    await image.waitFor();
    const first = await image.getAttribute('src');
    // Read as expired on arrival, each image was replaced at once, without end.
    await page.waitForTimeout(1_500);
    expect(fetched).toHaveLength(1);
    expect(await image.getAttribute('src')).toBe(first);
    expect(await page.locator('[data-testid=login-info]').count()).toBe(0);

    await page.locator('#login-username').fill('admin');
    await page.locator('#login-password').fill(server.adminPassword);
    await page.locator('#login-captcha').fill('0000');
    await page.locator('[data-testid=login-submit]').click();
    // The server's answer to a wrong one (4005), not the form's "expired" without asking.
    await page.locator('[data-testid=login-error]').filter({ hasText: zh.errors.captcha_wrong }).waitFor();
    expect(await page.locator('[data-testid=login-error]').textContent()).not.toContain(zh.login.captcha_expired);
    await expect.poll(() => fetched.length).toBe(2);
    expect([...watch.cspViolations, ...watch.pageErrors]).toEqual([]);
    await context.close();
  });
});
