/**
 * Issue 10: every signed-in console screen at 1440 px and at 390 px, in zh-CN, en-US and Arabic
 * (right to left), passes checkScreen — axe-core WCAG 2.1 A/AA, no sideways overflow, no text
 * squeezed down the page. axe skips much Arabic text as icon ligatures, so contrast is judged
 * by the en-US run. Screenshots: test-results/browser/console-screens-<nn>-<locale>-screen-<screen>-<width>.png.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { signIn, waitForShell } from './actions';
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
import { axeFindings, checkScreen, layoutProblems, WIDTHS } from './screen-checks';

/** A browser that prefers Chinese: the console follows the browser's language when none is chosen. */
const ZH_BROWSER = 'zh-CN';

const LOCALES = ['zh-CN', 'en-US', 'ar'] as const;

/** SCREENS_SURVEY=1 lists every finding instead of stopping at the first (to fix them in one go). */
async function check(page: Page, name: string, prepare?: () => Promise<void>): Promise<void> {
  if (!process.env.SCREENS_SURVEY) return checkScreen(page, name, prepare);
  for (const [label, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    await prepare?.();
    await page.waitForTimeout(300);
    const found = [...(await layoutProblems(page)), ...(await axeFindings(page))];
    if (found.length) console.log(`SURVEY ${name} ${label}\n${JSON.stringify(found, null, 1)}`);
  }
  await page.setViewportSize(WIDTHS.desktop);
}

describe.skipIf(!browserPresent && !browserRequired)('signed-in screens at both widths', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ locale: ZH_BROWSER, baseURL: server.baseUrl, viewport: WIDTHS.desktop });
    ({ page } = await newWatchedPage(context));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (path: string, locale: string, ready: string) => {
    await page.evaluate((tag) => localStorage.setItem('app_language', JSON.stringify({ value: tag, expire: null })), locale);
    await page.goto(path);
    await page.locator(ready).first().waitFor();
  };

  it('signs in', async () => {
    await page.goto('/login');
    await page.locator('[data-testid=login-form]').waitFor();
    await signIn(page, 'admin', server.adminPassword);
    await waitForShell(page);
  });

  for (const locale of LOCALES) {
    describe(locale, () => {
      const name = (screen: string) => `screen-${screen}`;

      it('account centre', async () => {
        await open('/account/center', locale, '[data-testid=account-username]');
        await check(page, name('center'));
      });

      it('security page: password, one-time password, sessions, preferences', async () => {
        await open('/account/security', locale, '[data-testid=sessions-card] [data-testid=session-item]');
        await page.locator('[data-testid=preferences-card] .ant-card-body').waitFor();
        await check(page, name('security'));
      });

      it('one-time password dialog', async () => {
        await open('/account/security', locale, '[data-testid=otp-enable]');
        await page.locator('[data-testid=otp-enable]').click();
        await page.locator('#otp-password').waitFor();
        await check(page, name('otp-dialog'));
        await page.keyboard.press('Escape');
      });

      it('outbox list', async () => {
        await open('/account/outbox', locale, '[data-testid=data-table]');
        await check(page, name('outbox'));
      });

      it('settings drawer', async () => {
        await open('/account/center', locale, '[data-testid=account-username]');
        await check(page, name('settings'), async () => {
          if (!(await page.locator('[data-testid=settings-drawer]').isVisible())) await page.locator('[data-testid=open-settings]').click();
          await page.locator('[data-testid=settings-drawer]').waitFor();
        });
        await page.keyboard.press('Escape');
      });

      it('user menu', async () => {
        await open('/account/center', locale, '[data-testid=account-username]');
        await check(page, name('user-menu'), async () => {
          await page.keyboard.press('Escape');
          await page.locator('[data-testid=user-menu]').click();
          await page.getByRole('menu').last().waitFor();
        });
        await page.keyboard.press('Escape');
      });

      for (const code of ['403', '404', '500']) {
        it(`${code} page inside the shell`, async () => {
          await open(`/${code}`, locale, '[data-testid=nav-menu]');
          await page.locator('.ant-result').waitFor();
          await check(page, name(code));
        });
      }
    });
  }
});
