/**
 * Issue 11's roles page (/account/role) in Chromium, and what a realm-viewer sees. The
 * administrator creates a person account and gives it realm-viewer through the API, then
 * makes a custom role in the grid and looks at the assignments; the viewer signs in and finds
 * no write button on the person page nor on the role page, and a write forced from the page
 * with its own token is refused by the server with SPEC §6's message. A description set to
 * script-like text renders inert. Screens checked in zh-CN, en-US and Arabic.
 * Screenshots: test-results/browser/roles-<nn>-<locale>-<step>.png.
 */
import { personPaths } from '@umbo/contracts/people';
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import { zhCN as zh } from '@umbo/contracts/phrases/zh-CN/index';
import { rolePaths } from '@umbo/contracts/roles';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseLanguage, expectMessage, signIn, waitForShell } from './actions';
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
import { checkScreen } from './screen-checks';

const VIEWER = { username: `viewer_${Date.now() % 100000}`, password: 'Viewer-Pass-2468' };
/** a description that would run script if it were ever rendered as HTML. */
const XSS = '"><img src=x onerror=alert(1)>';

const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '');

describe.skipIf(!browserPresent && !browserRequired)('roles and permissions in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let admin: Page;
  let viewer: Page;
  let adminToken = '';
  const dialogs: string[] = [];

  async function call(method: string, path: string, body?: object, token = adminToken) {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body ? JSON.stringify(body) : undefined,
    });
    return (await res.json()) as { code: number; data: any };
  }

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    const login = await fetch(`${server.baseUrl}/api/users/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
    });
    adminToken = ((await login.json()) as { data: { token: string } }).data.token;
    const person = await call('POST', personPaths.list('master'), { ...VIEWER, forcePassword: false });
    expect(person.code, JSON.stringify(person)).toBe(0);
    expect((await call('POST', rolePaths.assignments('master'), { accountId: person.data.id, roleId: 'realm-viewer' })).code).toBe(0);
    const custom = await call('POST', rolePaths.roles('master'), {
      name: 'auditors',
      description: XSS,
      permissions: [{ permissionId: 'audit', actions: ['query', 'get'] }],
    });
    expect(custom.code, JSON.stringify(custom)).toBe(0);

    browser = await launchBrowser();
    ({ page: admin } = await newWatchedPage(await browser.newContext({ locale: 'zh-CN', baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } })));
    ({ page: viewer } = await newWatchedPage(await browser.newContext({ locale: 'en-US', baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } })));
    for (const page of [admin, viewer]) page.on('dialog', (d) => void d.dismiss().then(() => dialogs.push(d.message())));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const rows = (page: Page, id: string) => page.locator(`[data-testid=${id}]`);
  /** A tab of the role page (not the shell's multi-tab bar). */
  const pageTab = (page: Page, name: string) => page.locator('[data-testid=role-page]').getByRole('tab', { name, exact: true });

  it('lists the built-in and custom roles of master for the administrator, script-like text inert', async () => {
    await admin.goto('/login');
    await signIn(admin, 'admin', server.adminPassword);
    await waitForShell(admin);
    await admin.goto('/account/role');
    await expect.poll(() => rows(admin, 'role-row').count()).toBe(4);
    const names = (await rows(admin, 'role-row').locator('td:first-child').allTextContents()).join(' ');
    for (const n of ['admin', 'realm-admin', 'realm-viewer', 'auditors']) expect(names).toContain(n);
    // the description is shown as the text it is, and nothing ran
    await admin.getByText(XSS, { exact: true }).waitFor();
    expect(await admin.locator('[data-testid=role-page] img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await checkScreen(admin, 'roles-list');
  });

  it('creates a custom role in the permission grid, offering only what the administrator may grant', async () => {
    await admin.locator('[data-testid=role-create]').click();
    const editor = admin.locator('.ant-modal').filter({ has: admin.locator('[data-testid=permission-grid]') });
    await editor.waitFor();
    await checkScreen(admin, 'roles-editor');
    await admin.locator('#role-name').fill('person-readers');
    await admin.locator('#role-description').fill('reads person accounts');
    await admin.locator('[data-testid=grid-person-query]').click();
    await admin.locator('[data-testid=grid-person-get]').click();
    await admin.locator('[data-testid=role-save]').click();
    await expectMessage(admin, zh.roles.created);
    await expect.poll(() => rows(admin, 'role-row').count()).toBe(5);
    const made = (await call('GET', rolePaths.roles('master'))).data.items.find((r: { name: string }) => r.name === 'person-readers');
    expect(made.permissions).toEqual([{ permissionId: 'person', actions: ['query', 'get'] }]);
  });

  it('shows the assignments with their remove button, and the assign dialog', async () => {
    await pageTab(admin, zh.roles.tab_assignments).click();
    await expect.poll(() => rows(admin, 'assignment-row').count()).toBeGreaterThanOrEqual(2);
    const viewerRow = rows(admin, 'assignment-row').filter({ hasText: VIEWER.username });
    expect(await viewerRow.textContent()).toContain('realm-viewer');
    expect(await viewerRow.locator('[data-testid=assignment-remove]').count()).toBe(1);
    await admin.mouse.move(0, 0);
    await checkScreen(admin, 'roles-assignments');
    await admin.locator('[data-testid=role-assign]').click();
    await admin.locator('#assign-account').waitFor();
    await checkScreen(admin, 'roles-assign-dialog');
    await admin.keyboard.press('Escape');
  });

  it('reads the same in English and in Arabic (right to left)', async () => {
    await admin.goto('/account/role');
    await chooseLanguage(admin, 'English');
    await pageTab(admin, en.roles.tab_roles).waitFor();
    // away from the buttons: a hovered button is not what the screen looks like
    await admin.mouse.move(0, 0);
    await checkScreen(admin, 'roles-list-en');
    await chooseLanguage(admin, 'العربية');
    await pageTab(admin, ar.roles.tab_roles).waitFor();
    expect(await admin.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await admin.mouse.move(0, 0);
    await checkScreen(admin, 'roles-list-ar');
    await admin.locator('[data-testid=role-create]').click();
    await admin.locator('[data-testid=permission-grid]').waitFor();
    await checkScreen(admin, 'roles-editor-ar');
    await admin.keyboard.press('Escape');
    await chooseLanguage(admin, '简体中文');
  });

  it('a realm-viewer finds no write button on the person page nor on the role page', async () => {
    await viewer.goto('/login');
    await signIn(viewer, VIEWER.username, VIEWER.password);
    await waitForShell(viewer);

    await viewer.goto('/account/person');
    await rows(viewer, 'person-name').first().waitFor();
    for (const id of [
      'person-add',
      'person-import',
      'person-enable',
      'person-disable',
      'person-delete',
      'person-bulk-enable',
      'person-bulk-disable',
      'person-bulk-delete',
    ])
      expect(await viewer.locator(`[data-testid=${id}]`).count(), id).toBe(0);
    await screenshot(viewer, 'viewer-person');

    await viewer.goto('/account/role');
    await expect.poll(() => rows(viewer, 'role-row').count()).toBe(5);
    for (const id of ['role-create', 'role-edit', 'role-delete']) expect(await viewer.locator(`[data-testid=${id}]`).count(), id).toBe(0);
    // each role opens read-only: nothing can be ticked
    await rows(viewer, 'role-view').first().click();
    await viewer.locator('[data-testid=permission-grid]').waitFor();
    expect(await viewer.locator('[data-testid=permission-grid] input:not([disabled])').count()).toBe(0);
    expect(await viewer.locator('[data-testid=role-save]').count()).toBe(0);
    await checkScreen(viewer, 'roles-viewer-role');
    await viewer.keyboard.press('Escape');

    await pageTab(viewer, en.roles.tab_assignments).click();
    await expect.poll(() => rows(viewer, 'assignment-row').count()).toBeGreaterThanOrEqual(2);
    for (const id of ['role-assign', 'assignment-remove']) expect(await viewer.locator(`[data-testid=${id}]`).count(), id).toBe(0);
    await checkScreen(viewer, 'roles-viewer-assignments');
  });

  it('a write forced from the page with the viewer’s own token is refused with SPEC §6’s message', async () => {
    const answer = await viewer.evaluate(async (path) => {
      const token = JSON.parse(localStorage.getItem('access_token') ?? 'null')?.value as string;
      const res = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': 'en' },
        body: JSON.stringify({ name: 'sneaky', description: 'grants itself', permissions: [{ permissionId: 'person', actions: ['delete'] }] }),
      });
      return { status: res.status, body: (await res.json()) as { code: number; msg: string; errData: unknown } };
    }, rolePaths.roles('master'));
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe(1003);
    expect(answer.body.errData).toEqual({ service: 'users', resource: 'role', perm: 'add' });
    expect(answer.body.msg).toBe(fill(en.errors.permission_missing, { perm: 'add', resource: 'role', service: 'users' }));
    expect((await call('GET', rolePaths.roles('master'))).data.items.map((r: { name: string }) => r.name)).not.toContain('sneaky');
  });
});
