/**
 * Issue 9's list table (components/data-table.tsx) on the outbox, at desktop width (1440 px),
 * the way an administrator uses it: page size and pages kept in the address (reload and back
 * button), the channel filter of the column menu, the recipient search, '—' in empty cells,
 * columns hidden and shown again (remembered across a reload), the header staying in view
 * under the top bar, a failed load said in place with a retry, and no CSP violation (A-41).
 * Screenshots: test-results/browser/lists-<nn>-<locale>-<step>.png (zh-CN, en-US, ar).
 */
import { accountPaths } from '@umbo/contracts/paths';
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import { zhCN as zh } from '@umbo/contracts/phrases/zh-CN/index';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseLanguage, signIn, waitForShell } from './actions';
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

/** Twelve mails and one text message: two pages of ten. */
const MAILS = Array.from({ length: 12 }, (_, i) => `list-${String(i + 1).padStart(2, '0')}@example.com`);
const MOBILE = '13800138000';
const TOTAL = MAILS.length + 1;

const rows = (page: Page) => page.locator('[data-testid=outbox-row]');
const headers = async (page: Page) =>
  (await page.locator('[data-testid=outbox-page] .ant-table-thead th').allTextContents()).map((s) => s.trim()).filter(Boolean);
const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
const listQuery = (page: Page) =>
  Object.fromEntries([...new URL(page.url()).searchParams].filter(([k]) => k !== 'displayServiceAccount' && k !== 'displayClient'));
const totalText = (page: Page) => page.locator('[data-testid=outbox-page] .ant-pagination-total-text').textContent();
const fill = (text: string, values: Record<string, number>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k]));

describe.skipIf(!browserPresent && !browserRequired)('list tables in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let watch: PageWatch;

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    const login = await fetch(`${server.baseUrl}/api/users/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    // Binding codes are the messages an administrator can cause; each lands in the outbox.
    const send = async (body: object) => {
      const res = await fetch(`${server.baseUrl}${accountPaths.bindCode}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ ...body, password: server.adminPassword }),
      });
      expect(((await res.json()) as { code: number }).code).toBe(0);
    };
    for (const email of MAILS) await send({ channel: 'email', email });
    await send({ channel: 'sms', mobile: MOBILE, country: '+86' });
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: ZH_BROWSER, baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } });
    ({ page, watch } = await newWatchedPage(context));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the outbox in antd’s table, newest first, with its columns and total', async () => {
    await page.goto('/login');
    await signIn(page, 'admin', server.adminPassword);
    await waitForShell(page);
    await page.goto('/account/outbox');
    await expect.poll(() => rows(page).count()).toBe(TOTAL);
    expect(await headers(page)).toEqual([
      zh.security.outbox_time,
      zh.security.outbox_channel,
      zh.security.outbox_recipient,
      zh.security.outbox_subject,
      zh.security.outbox_body,
    ]);
    // The text message was sent last: it is on top, and its empty subject reads '—'.
    const sms = rows(page).first();
    expect(await sms.locator('td').nth(2).textContent()).toBe(`+86${MOBILE}`);
    expect(await sms.locator('td').nth(3).textContent()).toBe('—');
    expect(await sms.locator('td').nth(1).textContent()).toBe(zh.security.outbox_sms);
    expect(await totalText(page)).toBe(fill(zh.table.total, { start: 1, end: TOTAL, total: TOTAL }));
    // At 1440 px the five columns fit: no sideways scrolling.
    const body = page.locator('[data-testid=outbox-page] .ant-table-body, [data-testid=outbox-page] .ant-table-content').first();
    expect(await body.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await screenshot(page, 'outbox');
  });

  it('keeps page size and page in the address: reload and back show the same rows', async () => {
    await page.locator('[data-testid=outbox-page] .ant-pagination-options .ant-select').click();
    await page.locator('.ant-select-item-option').filter({ hasText: /^10\D/ }).click();
    await expect.poll(() => query(page)).toMatchObject({ pageSize: '10' });
    await expect.poll(() => rows(page).count()).toBe(10);
    await page.locator('[data-testid=outbox-page] .ant-pagination-item-2').click();
    await expect.poll(() => query(page)).toMatchObject({ page: '2', pageSize: '10' });
    await expect.poll(() => rows(page).count()).toBe(TOTAL - 10);
    expect(await totalText(page)).toBe(fill(zh.table.total, { start: 11, end: TOTAL, total: TOTAL }));
    await screenshot(page, 'outbox-page-2');
    // The oldest mails are on the last page, whoever reloads or follows the link.
    await page.reload();
    await expect.poll(() => rows(page).count()).toBe(TOTAL - 10);
    expect(await rows(page).last().locator('td').nth(2).textContent()).toBe(MAILS[0]);
    expect(await page.locator('.ant-pagination-item-active').textContent()).toBe('2');
    await page.goBack();
    await expect.poll(() => rows(page).count()).toBe(10);
    expect(query(page).page).toBeUndefined();
  });

  it('filters by channel from the column menu and by recipient from the search box', async () => {
    await page
      .locator('[data-testid=outbox-page] .ant-table-thead th')
      .filter({ hasText: zh.security.outbox_channel })
      .locator('.ant-table-filter-trigger')
      .click();
    const menu = page.locator('.ant-table-filter-dropdown');
    await menu.getByText(zh.security.outbox_sms, { exact: true }).click();
    await screenshot(page, 'outbox-channel-filter');
    await menu.locator('.ant-btn-primary').click();
    await expect.poll(() => query(page)).toMatchObject({ channel: 'sms', pageSize: '10' });
    expect(query(page).page).toBeUndefined();
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().locator('td').nth(2).textContent()).toBe(`+86${MOBILE}`);

    await page.goto('/account/outbox');
    await page.locator('#outbox-recipient').fill(MAILS[2]!);
    await page.locator('#outbox-recipient').press('Enter');
    // Only the search in the list's part of the address; the shell's carried pair (SPEC §2) may stand beside it.
    await expect.poll(() => listQuery(page)).toEqual({ recipient: MAILS[2] });
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().locator('td').nth(2).textContent()).toBe(MAILS[2]);
    await page.reload();
    expect(await page.locator('#outbox-recipient').inputValue()).toBe(MAILS[2]);
    await expect.poll(() => rows(page).count()).toBe(1);
  });

  it('hides and shows columns, and remembers the choice', async () => {
    await page.goto('/account/outbox');
    await expect.poll(() => rows(page).count()).toBe(TOTAL);
    await page.locator('[data-testid=column-settings]').click();
    const panel = page.locator('[data-testid=column-settings-panel]');
    await panel.getByText(zh.security.outbox_subject, { exact: true }).click();
    await expect.poll(() => headers(page)).not.toContain(zh.security.outbox_subject);
    await screenshot(page, 'outbox-column-settings');
    await page.keyboard.press('Escape');
    await page.reload();
    await expect.poll(() => rows(page).count()).toBe(TOTAL);
    expect(await headers(page)).toEqual([zh.security.outbox_time, zh.security.outbox_channel, zh.security.outbox_recipient, zh.security.outbox_body]);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('table_columns') ?? 'null')?.value as unknown)).toEqual({ outbox: ['subject'] });
    await page.locator('[data-testid=column-settings]').click();
    await panel.getByText(zh.table.columns_reset, { exact: true }).click();
    await expect.poll(() => headers(page)).toContain(zh.security.outbox_subject);
    await page.keyboard.press('Escape');
  });

  it('keeps the column titles in view under the top bar while the rows scroll', async () => {
    await page.evaluate(() => window.scrollTo(0, 600));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    const top = async () => (await page.locator('[data-testid=outbox-page] .ant-table-sticky-holder').boundingBox())?.y;
    // The shell's top bar is 54 px high and fixed (the default page settings).
    await expect.poll(top).toBe(54);
    await screenshot(page, 'outbox-scrolled');
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  it('says in place when the list cannot be loaded, and loads it again on request', async () => {
    await page.route('**/api/users/outbox?**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ result: 'fail', code: 1201, errno: 1201, error: 'database_error', msg: 'x' }),
      }),
    );
    await page.locator('[data-testid=table-reload]').click();
    const alert = page.locator('[data-testid=table-error]');
    await alert.getByText(zh.table.load_failed).waitFor();
    expect(await alert.textContent()).toContain(zh.errors.database_error);
    await screenshot(page, 'outbox-load-failed');
    await page.unroute('**/api/users/outbox?**');
    // antd spaces out a two-character Chinese label ("重 试"): the alert's one button is it.
    await alert.getByRole('button').click();
    await alert.waitFor({ state: 'detached' });
    expect(await rows(page).count()).toBe(TOTAL);
  });

  it('reads in English and Arabic (right to left)', async () => {
    await chooseLanguage(page, 'English');
    await expect.poll(() => headers(page)).toContain(en.security.outbox_recipient);
    expect(await totalText(page)).toBe(fill(en.table.total, { start: 1, end: TOTAL, total: TOTAL }));
    await screenshot(page, 'outbox');
    await chooseLanguage(page, 'العربية');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expect.poll(() => headers(page)).toContain(ar.security.outbox_recipient);
    expect(await page.locator('[data-testid=outbox-page] .ant-table-rtl').count()).toBe(1);
    await screenshot(page, 'outbox');
    await chooseLanguage(page, '简体中文');
  });

  it('raised no page error', () => {
    expect(watch.pageErrors).toEqual([]);
    // Failed API calls log "Failed to load resource" (the failure above is on purpose).
    expect(watch.consoleErrors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
  });
});
