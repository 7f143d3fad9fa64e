/**
 * Issue 11's audit log (/account/audit) and dashboard (/dashboard/analysis, /monitor,
 * /workplace) in Chromium. Sign-ins made through the API before the browser opens are what
 * the pages must show: the audit rows, the analysis figures, the latest events. The CSV export
 * downloads a file. Every screen is checked (axe, 1440 and 390 px) in zh-CN, en-US and Arabic.
 * Screenshots: test-results/browser/audit-*.png, dashboard-*.png.
 */
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import { zhCN as zh } from '@umbo/contracts/phrases/zh-CN/index';
import { readFileSync } from 'node:fs';
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
  startServer,
  type RunningServer,
} from './harness';
import { checkScreen } from './screen-checks';

describe.skipIf(!browserPresent && !browserRequired)('audit log and dashboard in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  const login = (password: string) =>
    fetch(`${server.baseUrl}/api/users/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'audit-browser-suite' },
      body: JSON.stringify({ username: 'admin', password }),
    });

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    // What the pages must show: two failed and one good password sign-in of admin.
    expect((await login('Wrong-Password-1')).status).toBe(400);
    expect((await login('Wrong-Password-2')).status).toBe(400);
    expect((await login(server.adminPassword)).status).toBe(200);
    browser = await launchBrowser();
    ({ page } = await newWatchedPage(
      await browser.newContext({ locale: 'zh-CN', baseURL: server.baseUrl, viewport: { width: 1440, height: 900 }, acceptDownloads: true }),
    ));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const rows = () => page.locator('[data-testid=audit-row]');

  it('the audit log lists the sign-ins, filters them by the address, and exports them as CSV', async () => {
    await page.goto('/login');
    await signIn(page, 'admin', server.adminPassword);
    await waitForShell(page);
    await page.goto('/account/audit');
    // 2 failed + 1 good API sign-in + the browser's own
    await expect.poll(() => rows().count()).toBeGreaterThanOrEqual(4);
    const text = (await page.locator('[data-testid=audit-page]').textContent()) ?? '';
    expect(text).toContain(zh.audit.actions.signin_password);
    expect(text).toContain(zh.audit.result_fail);
    expect(text).toContain(zh.audit.reasons.bad_credentials);
    await checkScreen(page, 'audit-log-zh');

    await page.goto('/account/audit?result=fail');
    await expect.poll(() => rows().count()).toBe(2);
    expect(await rows().filter({ hasText: zh.audit.result_ok }).count()).toBe(0);

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=audit-export]').click()]);
    const path = await download.path();
    const csv = readFileSync(path!, 'utf8');
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toMatch(/^id,time,realm,/);
    expect(lines).toHaveLength(3);
    expect(download.suggestedFilename()).toMatch(/^audit-master-\d{4}-\d{2}-\d{2}\.csv$/);
    // The pointer leaves the button (a hovered button is drawn in its lighter hover colour).
    await page.mouse.move(0, 0);
  });

  it('analysis shows the sign-ins counted from the trail, with charts and their tables', async () => {
    await page.goto('/dashboard/analysis');
    await page.locator('[data-testid=analysis-totals]').waitFor();
    const figure = async (id: string) => Number(((await page.locator(`[data-testid=${id}] .dashboard__stat-value`).textContent()) ?? '').replace(/\D/g, ''));
    expect(await figure('stat-signins-fail')).toBe(2);
    expect(await figure('stat-signins-ok')).toBeGreaterThanOrEqual(2);
    expect(await figure('stat-active')).toBe(1);
    expect(await page.locator('[data-testid=chart-signins] canvas').count()).toBeGreaterThan(0);
    // the text alternative holds every day of the period
    await page.locator('[data-testid=chart-signins] summary').click();
    expect(await page.locator('[data-testid=chart-signins] tbody tr').count()).toBe(7);
    // issue 13: the administrator holds domainCert.query: the expiry card shows the domain's counts (none issued here)
    expect(await page.locator('[data-testid=cert-expiry-card] .ant-card-head').textContent()).toContain(zh.dashboard.cert_expiring);
    await expect.poll(() => page.locator('[data-testid=cert-expiring-90] dd').textContent()).toBe('0');
    await checkScreen(page, 'dashboard-analysis-zh');
  });

  it('monitor shows live request figures and a healthy database, and refreshes itself', async () => {
    await page.goto('/dashboard/monitor');
    await page.locator('[data-testid=monitor-stats]').waitFor();
    expect(await page.locator('[data-testid=stat-database]').textContent()).toContain(zh.dashboard.healthy);
    expect(await page.locator('[data-testid=stat-redis]').textContent()).toContain(zh.dashboard.not_configured);
    const before = await page.locator('[data-testid=monitor-page] .ant-card-extra').textContent();
    await expect.poll(() => page.locator('[data-testid=monitor-page] .ant-card-extra').textContent(), { timeout: 12_000 }).not.toBe(before);
    await checkScreen(page, 'dashboard-monitor-zh');
    // below the figures: the IT backends' circuit breakers and the data-centre queue (issue 14)
    await page.locator('[data-testid=monitor-backends]').waitFor();
    await checkScreen(page, 'dashboard-monitor-cards-zh', () => page.locator('[data-testid=monitor-queue]').scrollIntoViewIfNeeded());
  });

  it('workplace shows the administrator’s shortcuts and the latest events', async () => {
    await page.goto('/dashboard/workplace');
    await page.locator('[data-testid=shortcut-audit]').waitFor();
    expect(await page.locator('[data-testid=shortcut-person]').count()).toBe(1);
    await expect.poll(() => page.locator('[data-testid=workplace-event]').count()).toBeGreaterThanOrEqual(4);
    await checkScreen(page, 'dashboard-workplace-zh');
  });

  for (const [label, phrases, suffix] of [
    ['English', en, 'en'],
    ['العربية', ar, 'ar'],
  ] as const) {
    it(`reads in ${suffix === 'en' ? 'English' : 'Arabic (right to left)'}`, async () => {
      await page.goto('/account/audit');
      await chooseLanguage(page, label);
      // The menu item chosen sits over the export button: the pointer moves off it (hover colours are lighter).
      await page.mouse.move(0, 0);
      await page.getByText(phrases.audit.title).first().waitFor();
      if (suffix === 'ar') expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await expect.poll(() => rows().count()).toBeGreaterThanOrEqual(4);
      await checkScreen(page, `audit-log-${suffix}`);
      await page.goto('/dashboard/analysis');
      await page.locator('[data-testid=analysis-totals]').waitFor();
      await checkScreen(page, `dashboard-analysis-${suffix}`);
      await page.goto('/dashboard/monitor');
      await page.locator('[data-testid=monitor-stats]').waitFor();
      expect(await page.locator('[data-testid=stat-database]').textContent()).toContain(phrases.dashboard.healthy);
      await checkScreen(page, `dashboard-monitor-${suffix}`);
      await checkScreen(page, `dashboard-monitor-cards-${suffix}`, () => page.locator('[data-testid=monitor-queue]').scrollIntoViewIfNeeded());
      await page.goto('/dashboard/workplace');
      await page.locator('[data-testid=workplace-latest]').waitFor();
      await expect.poll(() => page.locator('[data-testid=workplace-event]').count()).toBeGreaterThanOrEqual(4);
      await checkScreen(page, `dashboard-workplace-${suffix}`);
    });
  }
});
