/**
 * Issue 10, the public pages: every sign-in, registration, recovery, reset, ftoken and
 * registration-result screen through checkScreen (axe WCAG 2.1 A/AA, no sideways overflow, no
 * squeezed text, at 1440 and 390 px) in zh-CN, en-US and Arabic, under the `always` captcha
 * policy so every form shows its captcha. en-US is the run that judges contrast (axe skips
 * much Arabic text). Then the page language: `?lang=`, the saved choice, the browser's
 * Accept-Language, zh-CN.
 * Screenshots: test-results/browser/public-screens-<nn>-<locale>-<screen>-<desktop|phone>.png.
 */
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import { zhCN as zh } from '@umbo/contracts/phrases/zh-CN/index';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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

describe.skipIf(!browserPresent && !browserRequired)('public screens: accessibility, phone width and language', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const watches: PageWatch[] = [];

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer({ MASTER_CAPTCHA_POLICY: 'always' });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const w of watches) expect([...w.cspViolations, ...w.pageErrors]).toEqual([]);
    await browser?.close();
    await server?.stop();
  });

  /** A visitor with a browser language (Accept-Language) and, if given, a saved choice. */
  async function visitor(options: { saved?: string; browserLocale?: string }): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, locale: options.browserLocale ?? 'en-US' });
    contexts.push(context);
    if (options.saved)
      await context.addInitScript((t) => {
        if (location.protocol.startsWith('http')) localStorage.setItem('app_language', JSON.stringify({ value: t, expire: null }));
      }, options.saved);
    const { page, watch } = await newWatchedPage(context);
    watches.push(watch);
    return page;
  }

  /** Waits until a form's captcha image has loaded, so the screenshot and axe see it. */
  async function captchaLoaded(page: Page, testId: string): Promise<void> {
    const image = page.locator(`[data-testid=${testId}] img`);
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }

  for (const tag of ['zh-CN', 'en-US', 'ar'] as const) {
    it(`passes the screen checks on every public screen (${tag})`, async () => {
      const page = await visitor({ saved: tag });

      await page.goto('/user/loginSSO');
      await captchaLoaded(page, 'captcha-image');
      await checkScreen(page, 'signin-password');
      await page.locator('[data-testid=method-sms]').click();
      await captchaLoaded(page, 'login-sms-captcha-image');
      await checkScreen(page, 'signin-sms');
      await page.locator('[data-testid=method-email]').click();
      await captchaLoaded(page, 'login-email-captcha-image');
      await checkScreen(page, 'signin-email');
      // The sign-in tabs keep to one row, at phone width too.
      await page.setViewportSize({ width: 390, height: 844 });
      const tops = await page.locator('[role=tab]').evaluateAll((tabs) => tabs.map((t) => Math.round(t.getBoundingClientRect().top)));
      expect(new Set(tops).size, `${tag}: sign-in tabs on one row`).toBe(1);
      // 'Send code' is as tall as its input.
      const heights = await page
        .locator('#login-email-email, [data-testid=login-email-send-code]')
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
      expect(heights[1]).toBe(heights[0]);
      await page.setViewportSize({ width: 1440, height: 900 });

      await page.goto('/user/register');
      await page.locator('[data-testid=register-page] form').waitFor();
      await checkScreen(page, 'register-email');
      await page.locator('[data-testid=method-sms]').click();
      await checkScreen(page, 'register-sms');

      await page.goto('/retrieve');
      await page.locator('[data-testid=retrieve-page] form').waitFor();
      await checkScreen(page, 'retrieve-email');
      await page.locator('[data-testid=method-sms]').click();
      await checkScreen(page, 'retrieve-sms');

      await page.goto('/reset');
      await page.locator('[data-testid=reset-form]').waitFor();
      await checkScreen(page, 'reset');

      await page.goto('/loginByFToken');
      await page.locator('[data-testid=ftoken-error]').waitFor();
      await checkScreen(page, 'ftoken');

      await page.goto('/user/register-result?activation=mail');
      await page.locator('[data-testid=register-result-page]').waitFor();
      await checkScreen(page, 'register-result');

      // A page that does not exist, seen by someone not signed in
      await page.goto('/no-such-page');
      await page.locator('.ant-result-title', { hasText: '404' }).waitFor();
      await checkScreen(page, 'not-found');
    });
  }

  it('speaks the language of ?lang= first, then the saved choice, then the browser, then zh-CN', async () => {
    const title = (page: Page) => page.locator('[data-testid=login-submit]').textContent();

    // An Arabic browser with nothing saved: Arabic, right to left.
    const arabic = await visitor({ browserLocale: 'ar' });
    await arabic.goto('/user/loginSSO');
    await expect.poll(() => title(arabic)).toBe(ar.login.submit);
    expect(await arabic.evaluate(() => document.documentElement.dir)).toBe('rtl');

    // An English browser: English.
    const english = await visitor({ browserLocale: 'en-US' });
    await english.goto('/user/loginSSO');
    await expect.poll(() => title(english)).toBe(en.login.submit);

    // A browser language umbo does not have: zh-CN.
    const korean = await visitor({ browserLocale: 'ko-KR' });
    await korean.goto('/user/loginSSO');
    await expect.poll(() => title(korean)).toBe(zh.login.submit);

    // The saved choice beats the browser; ?lang= beats both, and travels to the next screen.
    const saved = await visitor({ browserLocale: 'ar', saved: 'zh-CN' });
    await saved.goto('/user/loginSSO');
    await expect.poll(() => title(saved)).toBe(zh.login.submit);
    await saved.goto('/user/loginSSO?client_id=demo&lang=en-US');
    await expect.poll(() => title(saved)).toBe(en.login.submit);
    expect(await saved.evaluate(() => document.documentElement.lang)).toBe('en-US');
    await saved.locator('[data-testid=to-register]').click();
    await saved.locator('[data-testid=register-page]').filter({ hasText: en.flows.register_title }).waitFor();
    expect(new URL(saved.url()).searchParams.get('lang')).toBe('en-US');
    // ?lang= is not saved: without it the saved choice is back.
    await saved.goto('/user/loginSSO');
    await expect.poll(() => title(saved)).toBe(zh.login.submit);
  });
});
