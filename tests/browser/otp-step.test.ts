/**
 * Issue 10: the one-time password is a step of its own on the sign-in page, against the real
 * server with the default 'always' captcha (in-process, see in-process.ts). After a right
 * password the page asks for the OTP with a prompt (not a red 'OTP cannot be empty'), says a
 * recovery code works too, and asks no second captcha: the server's OTP ticket stands in.
 * Screenshots: test-results/browser/otp-step-<nn>-<locale>-<step>.png.
 */
import { en } from '@umbo/contracts/phrases/en/index';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, hotp } from '../../apps/server/src/otp/totp.js';
import { submitSignInWithCaptcha, waitForShell } from './actions';
import {
  assertPrerequisites,
  browserPresent,
  browserRequired,
  expectNoCspViolations,
  launchBrowser,
  newWatchedPage,
  screenshot,
  type PageWatch,
} from './harness';
import { startInProcessServer, type InProcessServer } from './in-process';
import { checkScreen } from './screen-checks';

const step = () => Math.floor(Date.now() / 30_000);

describe.skipIf(!browserPresent && !browserRequired)('the one-time-password step of the sign-in', () => {
  afterEach(expectNoCspViolations);
  let server: InProcessServer;
  let browser: Browser;
  let secret = '';
  const watches: PageWatch[] = [];

  async function post(path: string, body: object, token?: string): Promise<{ code: number; data?: any }> {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { code: number; data?: any };
  }

  beforeAll(async () => {
    assertPrerequisites();
    server = await startInProcessServer();
    browser = await launchBrowser();
    // The administrator turns the one-time password on (two consecutive codes, SPEC §4).
    const c = await server.ctx.services.captcha.issue('master');
    const signedIn = await post('/api/users/auth/login', { username: 'admin', password: server.adminPassword, captcha: c.answer, serialNo: c.serialNo });
    const token = signedIn.data.token as string;
    secret = (await post('/api/users/account/otp/setup', { password: server.adminPassword }, token)).data.secret as string;
    const key = base32Decode(secret);
    const enabled = await post('/api/users/account/otp/enable', { firstCode: hotp(key, step() - 1), secondCode: hotp(key, step()) }, token);
    expect(enabled.code).toBe(0);
  });

  afterAll(async () => {
    for (const w of watches) expect([...w.cspViolations, ...w.pageErrors]).toEqual([]);
    await browser?.close();
    await server?.stop();
  });

  it('asks for the OTP as a step of its own, without a second captcha; a wrong one stays in the step (en-US)', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    const { page, watch } = await newWatchedPage(context);
    watches.push(watch);
    await submitSignInWithCaptcha(page, 'admin', server.adminPassword, server.captchaAnswer);

    const prompt = page.locator('[data-testid=login-otp-prompt]');
    await prompt.waitFor();
    expect(await prompt.textContent()).toBe('Enter the one-time password from your authenticator app for admin. A recovery code works too.');
    expect(await prompt.textContent()).toBe(en.login.otp_prompt.replace('{{username}}', 'admin'));
    expect(await page.locator('[data-testid=login-error]').count()).toBe(0);
    expect(await page.locator('#login-captcha').count()).toBe(0);
    expect(await page.locator('#login-otp').inputValue()).toBe('');
    await checkScreen(page, 'otp-step');

    await page.locator('#login-otp').fill('000000');
    await page.locator('[data-testid=login-submit]').click();
    await page.locator('[data-testid=login-error]').filter({ hasText: 'OTP verification failed' }).waitFor();
    expect(await page.locator('#login-captcha').count()).toBe(0);
    await screenshot(page, 'otp-step-wrong');

    // The codes that turned it on are spent; the next step is still within ±1.
    await page.locator('#login-otp').fill(hotp(base32Decode(secret), step() + 1));
    await page.locator('[data-testid=login-submit]').click();
    await waitForShell(page);
    await context.close();
  });

  it("'Use another account' goes back to the whole form, with a captcha and no error", async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    const { page, watch } = await newWatchedPage(context);
    watches.push(watch);
    await submitSignInWithCaptcha(page, 'admin', server.adminPassword, server.captchaAnswer);
    await page.locator('[data-testid=login-otp-prompt]').waitFor();
    await page.locator('[data-testid=login-otp-cancel]').click();
    await page.locator('#login-username').waitFor();
    await page.locator('[data-testid=captcha-image] img').waitFor();
    expect(await page.locator('[data-testid=login-error]').count()).toBe(0);
    await context.close();
  });
});
