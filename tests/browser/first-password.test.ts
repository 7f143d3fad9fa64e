/**
 * A service account's first sign-in (issue 3, SPEC §3 force_password / DESIGN.md §4): signed in
 * as `owner/subname`, the console shows only the password form until a new password is set;
 * every other address leads back to it, and the server refuses other calls (1008). Afterwards
 * the console works and the old password no longer signs in. Real server in the test process
 * (in-process.ts), captcha answered from the image, en-US.
 */
import { en } from '@umbo/contracts/phrases/en/index';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../apps/server/src/auth/passwords.js';
import { signInWithCaptcha, submitSignInWithCaptcha } from './actions';
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

const SUBNAME = 'robot_arm_7';
const FIRST_PASSWORD = 'Issued-By-Admin-1';
const NEW_PASSWORD = 'Chosen-By-Robot-77';

describe.skipIf(!browserPresent && !browserRequired)('a service account’s forced first password', () => {
  afterEach(expectNoCspViolations);
  let server: InProcessServer;
  let browser: Browser;
  let page: Page;
  const watches: PageWatch[] = [];

  async function fresh(): Promise<{ page: Page; watch: PageWatch }> {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 900 } });
    await context.addInitScript(() => {
      if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', JSON.stringify({ value: 'en-US', expire: null }));
    });
    return newWatchedPage(context);
  }

  beforeAll(async () => {
    assertPrerequisites();
    server = await startInProcessServer();
    const owner = await server.ctx.repos.accounts.findAccountByUsername('master', 'admin');
    // What the administration screens will do when they land: a service account with an issued password.
    await server.ctx.repos.accounts.insertService({
      owner: owner!,
      subname: SUBNAME,
      passwordHash: await hashPassword(FIRST_PASSWORD),
      forcePassword: true,
      now: Date.now(),
    });
    browser = await launchBrowser();
    ({ page, watch: watches[0] } = await fresh());
  });

  afterAll(async () => {
    for (const w of watches) expect([...w.cspViolations, ...w.pageErrors]).toEqual([]);
    await browser?.close();
    await server?.stop();
  });

  it('shows only the password form, wherever the account goes', async () => {
    await submitSignInWithCaptcha(page, `ADMIN/${SUBNAME}`, FIRST_PASSWORD, server.captchaAnswer);
    const card = page.locator('[data-testid=password-card]');
    await card.locator('.ant-card-head-title', { hasText: en.account.force_password_title }).waitFor();
    await screenshot(page, 'forced-password');
    await page.goto('/account/center');
    await card.locator('.ant-card-head-title', { hasText: en.account.force_password_title }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account/security');
    // the server holds the line too: other calls answer 1008
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('access_token') ?? 'null')?.value as string);
    const other = await fetch(`${server.baseUrl}/api/users/account/sessions`, { headers: { authorization: `Bearer ${token}` } });
    expect((await other.json()).code).toBe(1008);
  });

  it('passes the screen checks at 1440 and 390 px in English, Chinese and Arabic (issue 10)', async () => {
    for (const tag of ['en-US', 'zh-CN', 'ar']) {
      await page.evaluate((value) => localStorage.setItem('app_language', JSON.stringify({ value, expire: null })), tag);
      await page.goto('/account/security');
      await page.locator('[data-testid=password-card] #old-password').waitFor();
      await checkScreen(page, `forced-password-${tag}`);
    }
    await page.evaluate(() => localStorage.setItem('app_language', JSON.stringify({ value: 'en-US', expire: null })));
    await page.goto('/account/security');
    await page.locator('[data-testid=password-card] .ant-card-head-title', { hasText: en.account.force_password_title }).waitFor();
  });

  it('sets a new password, then the console opens and the old password is refused', async () => {
    await page.locator('#old-password').fill(FIRST_PASSWORD);
    await page.locator('#new-password').fill(NEW_PASSWORD);
    await page.locator('#confirm-password').fill(NEW_PASSWORD);
    await page.locator('[data-testid=password-submit]').click();
    await page.locator('.ant-message').getByText(en.account.password_changed).waitFor();
    await page.goto('/account/center');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/account/center');
    await expect.poll(() => page.locator('[data-testid=password-card]').count()).toBe(0);
    await expect.poll(() => page.locator('[data-testid=account-username]').textContent()).toBe(`admin/${SUBNAME}`);
    await screenshot(page, 'after-first-password');
    // A new browser: the old password is refused, the new one signs straight into the console.
    ({ page, watch: watches[watches.length] } = await fresh());
    await submitSignInWithCaptcha(page, `admin/${SUBNAME}`, FIRST_PASSWORD, server.captchaAnswer);
    await page.locator('[data-testid=login-error]').getByText(en.errors.bad_credentials, { exact: false }).waitFor();
    await signInWithCaptcha(page, `admin/${SUBNAME}`, NEW_PASSWORD, server.captchaAnswer);
    expect(await page.locator('[data-testid=password-card]').count()).toBe(0);
  });
});
