/**
 * Issue 2's browser scenario against the real server: sign in as admin, find the menu, three
 * tabs closed with each command and message, en-US and Arabic (RTL), logout, and an anonymous
 * deep link through sign-in back to it. No CSP violation and no page error along the way.
 * Screenshots of every step: test-results/browser/console-<nn>-<locale>-<step>.png.
 */
import { PUBLIC_ROUTES, SIGNED_IN_ROUTES, type ConsoleRoute } from '@umbo/contracts/routes';
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import { zhCN } from '@umbo/contracts/phrases/zh-CN/index';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  activeTab,
  askLogout,
  chooseLanguage,
  clickMenu,
  openFromMenu,
  clickTab,
  expectMessage,
  menuLabels,
  signIn,
  tabCommand,
  tabContextCommand,
  tabLabels,
  waitForShell,
} from './actions';
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

const zh = zhCN;

describe.skipIf(!browserPresent && !browserRequired)('console in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watch: PageWatch;
  let site: string;

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ locale: ZH_BROWSER, baseURL: server.baseUrl, viewport: { width: 1280, height: 800 } });
    ({ page, watch } = await newWatchedPage(context));
    site = ((await (await fetch(`${server.baseUrl}/project.config.json?ts=${Date.now()}`)).json()) as { siteTitle?: string }).siteTitle || zh.shell.site_title;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('is served under a CSP whose scripts are strict: inline styles only (A-41)', async () => {
    const res = await fetch(`${server.baseUrl}/account/center`);
    const csp = (res.headers.get('content-security-policy') ?? '').split('; ');
    const scriptSrc = csp.find((d) => d.startsWith('script-src ')) ?? '';
    expect(scriptSrc).toMatch(/^script-src 'self'/);
    expect(scriptSrc).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("object-src 'none'");
    const html = await res.text();
    expect(html).not.toContain('__CSP_NONCE__');
    // Nothing inline for 'unsafe-inline' to have allowed: the page loads its scripts from 'self'.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('sends an anonymous visitor to sign-in and refuses a wrong password', async () => {
    await page.goto('/');
    await page.waitForURL('**/user/loginSSO?redirect=%2Faccount%2Fcenter');
    await expect.poll(() => page.title()).toBe(`${zh.menu.login} - ${site}`);
    await page.locator('[data-testid=login-form]').waitFor();
    await screenshot(page, 'sign-in');
    await signIn(page, 'admin', 'not-the-password');
    // What the user sees: the reason, announced, on the sign-in page, and no session begun.
    const error = page.locator('[data-testid=login-form]').getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toBe(`${zh.errors.bad_credentials} (1010)`);
    expect(await error.getAttribute('data-testid')).toBe('login-error');
    expect(new URL(page.url()).pathname).toBe('/user/loginSSO');
    expect(await page.locator('#login-password').isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await screenshot(page, 'sign-in-refused');
  });

  it('follows the public redirects, and /login hides the page header (SPEC §2)', async () => {
    await page.goto('/user');
    await page.waitForURL('**/user/loginSSO');
    expect(await page.locator('.user-layout__header').count()).toBe(1);
    await page.goto('/user/recover');
    await page.waitForURL('**/retrieve');
    await page.locator('[data-testid=retrieve-page]').waitFor();
    expect(await page.locator('.user-layout__header').count()).toBe(0);
    expect(await page.locator('[data-testid=login-entry]').count()).toBe(1);
    await page.goto('/login');
    await page.locator('[data-testid=login-form]').waitFor();
    expect(await page.locator('.user-layout__header').count()).toBe(0);
  });

  it('carries the login session state (SPEC §3) to registration and recovery and back', async () => {
    const state = { client_id: 'c1', state: 'st-42', realm_id: 'master', lang: 'zh-CN', redirect: '/account/security' };
    const expectState = () => {
      const params = new URL(page.url()).searchParams;
      for (const [name, value] of Object.entries(state)) expect(params.get(name), name).toBe(value);
    };
    await page.goto(`/user/loginSSO?${new URLSearchParams(state).toString()}`);
    await page.locator('[data-testid=to-register]').click();
    await page.waitForURL('**/user/register?**');
    expectState();
    await page.locator('[data-testid=back-to-login]').click();
    await page.waitForURL('**/user/loginSSO?**');
    expectState();
    await page.locator('[data-testid=to-retrieve]').click();
    await page.waitForURL('**/retrieve?**');
    expectState();
    // the next test signs in from the plain sign-in form
    await page.goto('/login');
    await page.locator('[data-testid=login-form]').waitFor();
  });

  it('signs in as admin and lands in the shell with the user area menu', async () => {
    const userDo = page.waitForRequest((r) => r.url().endsWith('/api/users/user.do') && r.method() === 'POST');
    await signIn(page, 'admin', server.adminPassword);
    await page.waitForURL('**/account/center?displayServiceAccount=false&displayClient=false');
    await waitForShell(page);
    expect(JSON.parse((await userDo).postData() ?? '{}')).toMatchObject({ todo: 'GetIOTUserName' });
    expect(await page.locator('[data-testid=user-name]').textContent()).toBe('admin');
    expect(await page.title()).toBe(`${zh.menu.center} - ${site}`);
    expect(await menuLabels(page)).toEqual([zh.menu.group_account, zh.menu.center, zh.menu.security, zh.menu.userService, zh.menu.myOAuth, zh.menu.developer]);
    await page.locator('[data-testid=account-center]').filter({ hasText: 'master' }).waitFor();
    await screenshot(page, 'account-center');
  });

  it('shows only the domain area menu on domain pages', async () => {
    await page.locator('[data-testid=area-switch]').getByText(zh.menu.area_domain).click();
    await page.waitForURL('**/account/domain?displayServiceAccount=false&displayClient=false');
    expect(await menuLabels(page)).toEqual([
      zh.menu.group_domain,
      zh.menu.domain,
      zh.menu.domainCert,
      zh.menu.outbox,
      zh.menu.role,
      zh.menu.audit,
      zh.menu.group_cert,
      zh.menu.certList,
      zh.menu.keys,
      zh.menu.tools,
      zh.menu.group_dashboard,
      zh.menu.analysis,
      zh.menu.monitor,
      zh.menu.workplace,
    ]);
    await page.locator('.ant-table').first().waitFor();
    await screenshot(page, 'domain-menu');
  });

  it('closes tabs with each command and says why when it cannot', async () => {
    await clickMenu(page, zh.menu.domainCert);
    await page.waitForURL('**/account/domain/cert?**');
    expect(await tabLabels(page)).toEqual([zh.menu.center, zh.menu.domain, zh.menu.domainCert]);
    await screenshot(page, 'three-tabs');

    await tabCommand(page, zh, 'close_right');
    await expectMessage(page, zh.shell.no_right);
    await screenshot(page, 'no-tab-right');

    await clickTab(page, zh.menu.center);
    await tabCommand(page, zh, 'close_left');
    await expectMessage(page, zh.shell.no_left);
    await screenshot(page, 'no-tab-left');

    await tabCommand(page, zh, 'close_right');
    await expect.poll(() => tabLabels(page)).toEqual([zh.menu.center]);
    await tabCommand(page, zh, 'close_current');
    await expectMessage(page, zh.shell.last_tab);
    await screenshot(page, 'last-tab');

    // Three again; "close left" from the last one keeps only it.
    await page.locator('[data-testid=area-switch]').getByText(zh.menu.area_domain).click();
    await clickMenu(page, zh.menu.keys);
    await expect.poll(() => tabLabels(page)).toEqual([zh.menu.center, zh.menu.domain, zh.menu.keys]);
    await tabContextCommand(page, zh, zh.menu.keys, 'close_left');
    await expect.poll(() => tabLabels(page)).toEqual([zh.menu.keys]);
    await screenshot(page, 'closed-left');

    // "Close all" keeps the tab it acts on.
    // Each menu click waits for its screen: a lazy screen still loading would take over after
    // the tab click and make the wrong tab active.
    await openFromMenu(page, zh.menu.certList);
    await openFromMenu(page, zh.menu.tools);
    await clickTab(page, zh.menu.certList);
    await tabCommand(page, zh, 'close_all');
    await expect.poll(() => tabLabels(page)).toEqual([zh.menu.certList]);
    await screenshot(page, 'closed-all');

    // Closing the active tab shows its neighbour.
    await openFromMenu(page, zh.menu.tools);
    await tabCommand(page, zh, 'close_current');
    await expect.poll(() => tabLabels(page)).toEqual([zh.menu.certList]);
    await page.waitForURL('**/account/cert/list?**');
    expect(await activeTab(page)).toBe(zh.menu.certList);
  });

  it('switches to en-US', async () => {
    await chooseLanguage(page, 'English');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr');
    await expect.poll(() => menuLabels(page)).toContain(en.menu.certList);
    expect(await page.title()).toBe(`${en.menu.certList} - ${site}`);
    expect(await tabLabels(page)).toEqual([en.menu.certList]);
    await page.locator('[data-testid=open-settings]').click();
    await page.locator('[data-testid=settings-drawer]').getByText(en.settings.title).waitFor();
    await screenshot(page, 'settings-drawer');
    await page.keyboard.press('Escape');
  });

  it('keeps page settings under the SPEC §3 keys', async () => {
    const stored = (key: string) => page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? 'null')?.value as unknown, key);
    await page.locator('[data-testid=open-settings]').click();
    const drawer = page.locator('[data-testid=settings-drawer]');
    await drawer.getByText(en.settings.theme_real_dark).click();
    await drawer.getByText(en.settings.layout_top).click();
    await page.keyboard.press('Escape');
    expect(await stored('nav_theme')).toBe('realDark');
    expect(await stored('layout')).toBe('topmenu');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.locator('.shell__top-menu').waitFor();
    await screenshot(page, 'dark-top-menu');
    await page.locator('[data-testid=open-settings]').click();
    await drawer.getByText(en.settings.reset).click();
    await page.keyboard.press('Escape');
    expect(await stored('nav_theme')).toBe('dark');
    expect(await stored('layout')).toBe('sidemenu');
    await page.locator('.shell__sider').waitFor();
  });

  it('switches to Arabic, right to left', async () => {
    await chooseLanguage(page, 'العربية');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
    await expect.poll(() => menuLabels(page)).toContain(ar.menu.certList);
    // antd follows: the side menu sits on the right.
    const sider = await page.locator('.shell__sider').boundingBox();
    expect(sider!.x).toBeGreaterThan(640);
    expect(await page.locator('.ant-layout-rtl').count()).toBeGreaterThan(0);
    await screenshot(page, 'rtl-shell');
    await page.locator('[data-testid=user-menu]').click();
    await screenshot(page, 'rtl-user-menu');
    await page.keyboard.press('Escape');
  });

  it('logs out after the confirmation, and the token is gone for good', async () => {
    await chooseLanguage(page, 'English');
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('access_token') ?? 'null')?.value as string);
    expect(token).toBeTruthy();
    await askLogout(page, en);
    expect(en.shell.logout_confirm).toBe('Are you sure you would like to logout?');
    await screenshot(page, 'logout-confirm');
    await page.locator('.ant-modal-confirm .ant-btn-primary').click();
    await page.waitForURL('**/user/loginSSO');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    const after = await fetch(`${server.baseUrl}/api/perm/user/info`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    await screenshot(page, 'signed-out');
  });

  it('follows an anonymous deep link through sign-in back to it', async () => {
    await page.goto('/account/cert/keys?from=deep-link');
    await page.waitForURL('**/user/loginSSO?redirect=%2Faccount%2Fcert%2Fkeys%3Ffrom%3Ddeep-link');
    await screenshot(page, 'deep-link-sign-in');
    await signIn(page, 'admin', server.adminPassword);
    await page.waitForURL((url) => url.pathname === '/account/cert/keys' && url.searchParams.get('from') === 'deep-link');
    await waitForShell(page);
    expect(new URL(page.url()).searchParams.get('displayServiceAccount')).toBe('false');
    expect(await page.title()).toBe(`${en.menu.keys} - ${site}`);
    await screenshot(page, 'deep-link-landed');
  });

  it('sends unknown paths to the 404 page', async () => {
    await page.goto('/no/such/page');
    await page.waitForURL('**/404');
    await page.getByText(en.pages.exception_404).waitFor();
    await screenshot(page, 'not-found');
  });

  it('shows every console screen without a CSP violation (A-41)', async () => {
    // Each screen loaded as a fresh document, signed in and anonymous, at desktop width.
    const visit = async (p: Page, w: PageWatch, route: ConsoleRoute, problems: string[]) => {
      const before = w.cspViolations.length;
      await p.goto(route.path);
      await expect.poll(() => p.title(), { message: route.path }).toBe(`${zh.menu[route.title]} - ${site}`);
      await p.waitForLoadState('networkidle');
      problems.push(...w.cspViolations.slice(before).map((v) => `${route.path}: ${v}`));
    };
    const problems: string[] = [];
    const signedIn = await browser.newContext({ locale: ZH_BROWSER, baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } });
    const { page: p, watch: w } = await newWatchedPage(signedIn);
    await p.goto('/login');
    await signIn(p, 'admin', server.adminPassword);
    await waitForShell(p);
    for (const route of SIGNED_IN_ROUTES) await visit(p, w, route, problems);
    // The outbox is a table: the screen most likely to inject styles.
    await p.goto('/account/outbox');
    await p.locator('[data-testid=outbox-page] .ant-table').waitFor();
    await p.waitForLoadState('networkidle');
    await screenshot(p, 'outbox-empty');
    const anonymous = await browser.newContext({ locale: ZH_BROWSER, baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } });
    const { page: a, watch: aw } = await newWatchedPage(anonymous);
    // The authorization-code hand-over redirects away at once: not a screen of its own.
    for (const route of PUBLIC_ROUTES.filter((r) => r.name !== 'userRedirectAuthcode')) await visit(a, aw, route, problems);
    expect(SIGNED_IN_ROUTES.length + PUBLIC_ROUTES.length).toBeGreaterThan(20);
    expect(problems).toEqual([]);
    expect([...w.pageErrors, ...aw.pageErrors]).toEqual([]);
    await signedIn.close();
    await anonymous.close();
  });

  it('never followed a redirect off the site', async () => {
    const other = await browser.newContext({ locale: ZH_BROWSER, baseURL: server.baseUrl });
    const { page: p } = await newWatchedPage(other);
    await p.goto('/user/loginSSO?redirect=%2F%2Fevil.example%2Fsteal');
    await signIn(p, 'admin', server.adminPassword);
    await p.waitForURL((url) => url.origin === server.baseUrl && url.pathname === '/account/center');
    await other.close();
  });

  it('offers the languages on the sign-in page too', async () => {
    const other = await browser.newContext({ locale: ZH_BROWSER, baseURL: server.baseUrl });
    const { page: p, watch: w } = await newWatchedPage(other);
    await p.goto('/user/loginSSO');
    await p.locator('[data-testid=language-select]').selectOption('ar');
    await expect.poll(() => p.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await p.getByText(ar.login.submit, { exact: true }).waitFor();
    expect(await p.title()).toBe(`${ar.menu.login} - ${site}`);
    await screenshot(p, 'rtl-sign-in');
    expect([...w.cspViolations, ...w.pageErrors]).toEqual([]);
    await other.close();
  });

  it('saw no CSP violation and no page error', async () => {
    expect(watch.cspViolations).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    // Failed API calls log "Failed to load resource"; anything else is a bug.
    expect(watch.consoleErrors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
  });
});
