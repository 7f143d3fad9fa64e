/**
 * Person accounts (/account/person, issue 11) in Chromium, the way an administrator uses the
 * page: create an account in the dialog, disable and enable it through the confirmation,
 * bulk-disable three, export the list as CSV (the download happens, formulas defused), import
 * a CSV with two bad rows (the dry run shows them, nothing is written), open the detail drawer.
 * Script-like text in an account's fields renders inert in the list and the drawer.
 * Every screen passes checkScreen at 1440 and 390 px in en-US, zh-CN and ar.
 * Screenshots: test-results/browser/people-<nn>-<locale>-<step>.png.
 */
import { readFileSync } from 'node:fs';
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import { zhCN as zh } from '@umbo/contracts/phrases/zh-CN/index';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { confirmOk, signIn, waitForShell } from './actions';
import {
  assertPrerequisites,
  browserPresent,
  browserRequired,
  expectNoCspViolations,
  launchBrowser,
  newWatchedPage,
  type RunningServer,
  startServer,
} from './harness';
import { checkScreen } from './screen-checks';

const P = en.people.person;
const XSS = '"><svg/onload=alert(1)>@evil.test';
const rows = (page: Page) => page.locator('[data-testid=person-row]');
const row = (page: Page, name: string) => rows(page).filter({ has: page.locator('[data-testid=person-name]', { hasText: new RegExp(`^${name}$`) }) });
const statusOf = (page: Page, name: string) => row(page, name).locator('[data-testid=person-status]').textContent();
/** The OK button of the open antd confirmation (Modal.confirm). */

describe.skipIf(!browserPresent && !browserRequired)('person accounts in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let token = '';
  const dialogs: string[] = [];

  async function api(method: string, path: string, body?: unknown) {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as { code: number; data: any };
  }

  async function open(locale: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ locale, baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const { page } = await newWatchedPage(context);
    // a script that ran would open a dialog; none may.
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto('/login');
    await signIn(page, 'admin', server.adminPassword);
    await waitForShell(page);
    await page.goto('/account/person');
    await page.locator('[data-testid=person-page]').waitFor();
    return { context, page };
  }

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    const login = await fetch(`${server.baseUrl}/api/users/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
    });
    token = ((await login.json()) as { data: { token: string } }).data.token;
    for (let i = 1; i <= 4; i++)
      expect((await api('POST', '/api/users/realms/master/accounts', { username: `bulk_${i}`, email: `bulk_${i}@example.test` })).code).toBe(0);
    expect((await api('POST', '/api/users/realms/master/accounts', { username: 'script_like', email: XSS, phone: '13800001111' })).code).toBe(0);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the accounts with keyset pages, a total and the realm shown (en-US)', async () => {
    const { context, page } = await open('en-US');
    await expect.poll(() => rows(page).count()).toBe(6);
    expect(await page.locator('[data-testid=person-realm]').textContent()).toBe('master');
    expect(await page.locator('[data-testid=person-total]').textContent()).toBe(P.total.replace('{{total}}', '6'));
    // Script-like text is shown as text.
    expect(await row(page, 'script_like').locator('td').nth(2).textContent()).toBe(XSS);
    await checkScreen(page, 'person-list-en');
    // Two rows a page: next, next, previous.
    await page.locator('.person-pager__size').click();
    await page.locator('.ant-select-item-option').filter({ hasText: /^10$/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('pageSize')).toBe('10');
    await context.close();
  });

  it('creates a person account in the dialog, then disables and enables it through the confirmation', async () => {
    const { context, page } = await open('en-US');
    await page.locator('[data-testid=person-add]').click();
    const dialog = page.locator('[data-testid=person-create-dialog]');
    await dialog.locator('#person-new-username').fill('x');
    await dialog.locator('.ant-btn-primary').click();
    await dialog.getByText(en.validation.username).waitFor();
    await checkScreen(page, 'person-create-en');
    await dialog.locator('#person-new-username').fill('new_person');
    await dialog.locator('#person-new-email').fill('new.person@example.test');
    await dialog.locator('#person-new-phone').fill('13912345678');
    await dialog.locator('#person-new-password').fill('Temp-Pass-4412');
    await dialog.locator('.ant-btn-primary').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => row(page, 'new_person').count()).toBe(1);
    expect(await row(page, 'new_person').locator('td').nth(3).textContent()).toBe('+8613912345678');

    await row(page, 'new_person').locator('[data-testid=person-disable]').click();
    await page.locator('.ant-modal-confirm-title', { hasText: P.confirm_disable.replace('{{name}}', 'new_person') }).waitFor();
    await checkScreen(page, 'person-confirm-disable-en');
    await confirmOk(page);
    await expect.poll(() => statusOf(page, 'new_person')).toBe(P.disabled);
    await row(page, 'new_person').locator('[data-testid=person-enable]').click();
    await confirmOk(page);
    await expect.poll(() => statusOf(page, 'new_person')).toBe(P.enabled);
    const stored = await api('GET', '/api/users/realms/master/accounts?q=new_person');
    expect(stored.data.items[0]).toMatchObject({ username: 'new_person', disabled: false, forcePassword: true });
    await context.close();
  });

  it('bulk-disables three selected accounts after the confirmation', async () => {
    const { context, page } = await open('en-US');
    await expect.poll(() => row(page, 'bulk_3').count()).toBe(1);
    for (const name of ['bulk_1', 'bulk_2', 'bulk_3']) await row(page, name).locator('.ant-checkbox-input').check();
    await page.locator('[data-testid=person-bulk-disable]').click();
    await page.locator('.ant-modal-confirm-title', { hasText: P.confirm_bulk_disable.replace('{{count}}', '3') }).waitFor();
    await checkScreen(page, 'person-bulk-confirm-en');
    await confirmOk(page);
    for (const name of ['bulk_1', 'bulk_2', 'bulk_3']) await expect.poll(() => statusOf(page, name)).toBe(P.disabled);
    expect(await statusOf(page, 'bulk_4')).toBe(P.enabled);
    await context.close();
  });

  it('exports the current filter as a CSV download, formulas defused', async () => {
    const { context, page } = await open('en-US');
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=person-export]').click()]);
    expect(download.suggestedFilename()).toMatch(/^accounts-master-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('id,userName,email,phone,disabled,activated,registArea,createdAt,lastLoginAt');
    expect(lines).toHaveLength(1 + (await api('GET', '/api/users/realms/master/accounts')).data.total);
    // The phone starts with '+': a spreadsheet would read a formula, so the cell is defused.
    expect(lines.find((l) => l.includes('script_like'))).toContain(`,'+8613800001111,`);
    await context.close();
  });

  it('imports a CSV with two bad rows: the dry run shows them and nothing is written', async () => {
    const { context, page } = await open('en-US');
    await page.locator('[data-testid=person-import]').click();
    const dialog = page.locator('[data-testid=person-import-dialog]');
    const csv = ['userName,email,phone', 'csv_good,csv.good@example.test,', 'x,not-an-email,', 'bulk_4,,'].join('\n');
    await dialog.locator('[data-testid=person-import-file]').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.locator('[data-testid=person-import-report]').waitFor();
    await expect.poll(() => dialog.locator('[data-testid=person-import-error]').count()).toBe(3);
    expect(await dialog.textContent()).toContain(P.import_summary.replace('{{rows}}', '3').replace('{{valid}}', '1'));
    expect(await dialog.textContent()).toContain(P.err_duplicate_in_db);
    expect(await dialog.locator('[data-testid=person-import-confirm]').isDisabled()).toBe(true);
    await checkScreen(page, 'person-import-report-en');
    await dialog.locator('.ant-modal-close').click();
    expect((await api('GET', '/api/users/realms/master/accounts?q=csv_good')).data.total).toBe(0);
    await context.close();
  });

  it('opens the detail drawer: fields, sessions, OTP, temporary password and the audit timeline; script-like text stays text', async () => {
    const { context, page } = await open('en-US');
    await row(page, 'script_like').locator('[data-testid=person-name]').click();
    const drawer = page.locator('[data-testid=person-drawer]');
    await drawer.locator('[data-testid=person-detail-username]').waitFor();
    expect(await drawer.locator('[data-testid=person-detail-username]').textContent()).toBe('script_like');
    await drawer.locator('[data-testid=person-otp-state]').getByText(P.otp_off).waitFor();
    await drawer.locator('[data-testid=audit-timeline-event]').first().waitFor();
    // issue 14: a local account has no upstream sign-in link, and the section says so
    await drawer.locator('[data-testid=person-upstream-links]').getByText(P.upstream_empty).waitFor();
    expect(await drawer.textContent()).toContain(XSS);
    await checkScreen(page, 'person-drawer-en');
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it.each([
    ['zh-CN', zh],
    ['ar', ar],
  ] as const)('shows the list, the create dialog and the drawer in %s', async (locale, phrases) => {
    const { context, page } = await open(locale);
    await expect.poll(() => rows(page).count()).toBeGreaterThan(5);
    expect(await page.locator('[data-testid=person-page] .ant-card-head-title').textContent()).toBe(phrases.people.person.title);
    await checkScreen(page, `person-list-${locale}`);
    await page.locator('[data-testid=person-add]').click();
    await page.locator('[data-testid=person-create-dialog] #person-new-username').waitFor();
    await checkScreen(page, `person-create-${locale}`);
    await page.locator('[data-testid=person-create-dialog] .ant-modal-close').click();
    await row(page, 'script_like').locator('[data-testid=person-name]').click();
    await page.locator('[data-testid=person-drawer] [data-testid=person-detail-username]').waitFor();
    await checkScreen(page, `person-drawer-${locale}`);
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
