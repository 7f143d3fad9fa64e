/**
 * Issue 10's smaller console items, checked the way a user sees them: a signed-in 404 inside
 * the shell, tabs kept when the layout changes, the settings drawer from the reading end in
 * Arabic, role tags apart, the language in use on the preferences, binding formats checked
 * before sending, and "sign out all other devices".
 * Screenshots: test-results/browser/console-details-<nn>-<step>.png.
 */
import { en } from '@umbo/contracts/phrases/en/index';
import { zhCN } from '@umbo/contracts/phrases/zh-CN/index';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseLanguage, expectMessage, settle, signIn, tabCommand, tabLabels, waitForShell } from './actions';
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
import { checkScreen } from './screen-checks';

describe.skipIf(!browserPresent && !browserRequired)('console details in Chromium (issue 10)', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watch: PageWatch;

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 900 } });
    await context.addInitScript(() => {
      if (!localStorage.getItem('app_language')) localStorage.setItem('app_language', JSON.stringify({ value: 'en-US', expire: null }));
    });
    ({ page, watch } = await newWatchedPage(context));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const setLanguage = (tag: string) => page.evaluate((value) => localStorage.setItem('app_language', JSON.stringify({ value, expire: null })), tag);

  it('signs in and shows a signed-in 404 inside the console shell', async () => {
    await page.goto('/login');
    await signIn(page, 'admin', server.adminPassword);
    await waitForShell(page);
    await page.goto('/no/such/page');
    await page.waitForURL('**/404**');
    await page.locator('.ant-result-title').filter({ hasText: '404' }).waitFor();
    expect(await page.locator('.ant-result-subtitle').textContent()).toBe(en.pages.exception_404);
    expect(await page.locator('[data-testid=nav-menu]').count()).toBe(1);
    expect(await page.locator('[data-testid=user-name]').textContent()).not.toBe('');
    await screenshot(page, 'signed-in-404');
  });

  it('shows role tags apart and the language in use on the preferences', async () => {
    await page.goto('/account/center');
    const tags = page.locator('[data-testid=account-roles] .ant-tag');
    await tags.first().waitFor();
    const boxes = await tags.evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.left - boxes[i - 1]!.right).toBeGreaterThanOrEqual(4);
    await page.goto('/account/security');
    await page.locator('[data-testid=preferences-card] #pref-language').waitFor();
    expect(await page.locator('[data-testid=preferences-card] .ant-select').first().textContent()).toBe('English');
  });

  it('keeps the open tabs when the layout changes to the top menu', async () => {
    await page.goto('/account/center');
    await page.locator('[data-testid=account-username]').waitFor();
    await page.goto('/account/security');
    await page.locator('[data-testid=security-page]').waitFor();
    // A full load starts a fresh tab bar: open the second tab from the menu instead.
    await page.locator('[data-testid=nav-menu]').getByRole('link', { name: en.menu.center, exact: true }).click();
    await expect.poll(() => tabLabels(page)).toEqual([en.menu.security, en.menu.center]);
    await page.locator('[data-testid=open-settings]').click();
    await page.locator('[data-testid=settings-drawer]').getByText(en.settings.layout_top, { exact: true }).click();
    await page.locator('.shell__header--top').waitFor();
    await expect.poll(() => tabLabels(page)).toEqual([en.menu.security, en.menu.center]);
    await page.locator('[data-testid=settings-drawer]').getByText(en.settings.layout_side, { exact: true }).click();
    await page.keyboard.press('Escape');
  });

  it('opens the settings drawer from the left in Arabic (RTL) and from the right in English', async () => {
    const drawerSide = async () => {
      await page.locator('[data-testid=open-settings]').click();
      const panel = page.locator('.ant-drawer-content-wrapper');
      await panel.waitFor();
      await page.waitForTimeout(400);
      const box = (await panel.boundingBox())!;
      await page.keyboard.press('Escape');
      return box.x < 10 ? 'left' : box.x + box.width > 1270 ? 'right' : 'middle';
    };
    await page.goto('/account/center');
    await page.locator('[data-testid=account-username]').waitFor();
    expect(await drawerSide()).toBe('right');
    await setLanguage('ar');
    await page.goto('/account/center');
    await page.locator('[data-testid=account-username]').waitFor();
    expect(await drawerSide()).toBe('left');
    await setLanguage('en-US');
  });

  it('checks the address format in the binding dialog before sending a code (SPEC §5)', async () => {
    await page.goto('/account/center');
    const email = page.locator('[data-testid=account-center] .ant-descriptions-item-content').filter({ has: page.locator('[data-testid=bound-email]') });
    const bindEmail = email.getByRole('button', { name: /^(Bind email|Change email)$/ });
    const bound = ((await page.locator('[data-testid=bound-email]').textContent()) ?? '') !== en.account.not_bound;
    expect(await bindEmail.textContent()).toBe(bound ? en.account.change_email : en.account.bind_email);
    await bindEmail.click();
    await page.locator('#bind-target').fill('not-an-address');
    await page.locator('#bind-password').fill(server.adminPassword);
    await page.locator('[data-testid=bind-send-code]').click();
    await page.locator('.ant-modal .ant-form-item-explain-error').filter({ hasText: en.validation.email }).waitFor();
    await page.keyboard.press('Escape');

    const phone = page.locator('[data-testid=account-center] .ant-descriptions-item-content').filter({ has: page.locator('[data-testid=bound-sms]') });
    await phone.getByRole('button', { name: /^(Bind phone|Change phone)$/ }).click();
    await page.locator('#bind-target').fill('12345678901');
    await page.locator('#bind-password').fill(server.adminPassword);
    await page.locator('[data-testid=bind-send-code]').click();
    await page.locator('.ant-modal .ant-form-item-explain-error').filter({ hasText: en.validation.mobile }).waitFor();
    await screenshot(page, 'binding-mobile-format');
    await page.keyboard.press('Escape');
  });

  it('signs out all other devices after a confirmation', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.baseUrl}/api/users/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
      });
      expect(((await res.json()) as { code: number }).code).toBe(0);
    }
    await page.goto('/account/security');
    const items = page.locator('[data-testid=session-item]');
    await expect.poll(() => items.count()).toBeGreaterThanOrEqual(3);
    const others = (await items.count()) - 1;
    const button = page.locator('[data-testid=sessions-revoke-others]');
    expect(await button.textContent()).toBe(en.account.sessions_revoke_others);
    await checkScreen(page, 'sessions-with-others');
    // after the screen checks' resizing, and with the confirmation's zoom over, the clicks land where they aim
    await settle(page);
    await button.click();
    await page.getByText(en.account.sessions_revoke_others_confirm).waitFor();
    await settle(page);
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await expectMessage(page, en.account.sessions_revoked_others.replace('{{count}}', String(others)));
    await expect.poll(() => items.count()).toBe(1);
    expect(await button.count()).toBe(0);
    await screenshot(page, 'sessions-others-signed-out');
  });

  it('says a standing message again in the language switched to', async () => {
    await page.goto('/account/center');
    await page.locator('[data-testid=account-username]').waitFor();
    await tabCommand(page, en, 'close_all');
    await expectMessage(page, en.shell.last_tab);
    await chooseLanguage(page, '简体中文');
    await page.locator('.ant-message-notice').filter({ hasText: zhCN.shell.last_tab }).waitFor();
    expect(await page.locator('.ant-message-notice').filter({ hasText: en.shell.last_tab }).count()).toBe(0);
    await chooseLanguage(page, 'English');
  });

  it('raised no page error', () => {
    expect(watch.pageErrors).toEqual([]);
  });
});
