/**
 * Issue 11's domain page (/account/domain) in Chromium: the administrator creates a domain of
 * each backend type through the form, edits one and uploads a logo that is too large (the
 * error is shown, nothing is sent), deletes a domain with accounts through both
 * confirmations, sets a domain's certificate expiry notice days (1–3 values of 1–365, issue
 * 13), and reads the list in zh-CN, en-US and Arabic. A description and a template
 * set to script-like text render inert (A-41: no dialog, no element made from them).
 * Screenshots: test-results/browser/domains-*.png.
 */
import { personPaths } from '@umbo/contracts/people';
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import { zhCN as zh } from '@umbo/contracts/phrases/zh-CN/index';
import { realmPaths } from '@umbo/contracts/realms';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  startServer,
  type RunningServer,
} from './harness';
import { checkScreen } from './screen-checks';

/** text that would run script if it were ever rendered as HTML. */
const XSS = '"><img src=x onerror=alert(1)>';
const suffix = String(Date.now() % 100000);
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? ''));

describe.skipIf(!browserPresent && !browserRequired)('domains in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let token = '';
  const dialogs: string[] = [];

  async function call(method: string, p: string, body?: object) {
    const res = await fetch(`${server.baseUrl}${p}`, {
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
    token = ((await login.json()) as { data: { token: string } }).data.token;
    // A domain whose description is script-like, with two accounts for the delete test.
    const made = await call('POST', realmPaths.list, {
      realmId: `xss${suffix}`,
      domain: `xss${suffix}.example.com`,
      description: XSS.slice(0, 50),
      settings: { activeEmailTpl: XSS },
    });
    expect(made.code, JSON.stringify(made)).toBe(0);
    for (const name of ['alice', 'bob']) {
      const person = await call('POST', personPaths.list(`xss${suffix}`), { username: `${name}${suffix}`, password: 'Person-Pass-1357', forcePassword: false });
      expect(person.code, JSON.stringify(person)).toBe(0);
    }
    browser = await launchBrowser();
    ({ page } = await newWatchedPage(await browser.newContext({ locale: 'zh-CN', baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } })));
    page.on('dialog', (d) => void d.dismiss().then(() => dialogs.push(d.message())));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const row = (realmId: string) => page.locator('[data-testid=realm-row]').filter({ hasText: realmId });

  it('lists the domains with links to their accounts; script-like text is inert', async () => {
    await page.goto('/login');
    await signIn(page, 'admin', server.adminPassword);
    await waitForShell(page);
    await page.goto('/account/domain');
    await row('master').waitFor();
    await row(`xss${suffix}`).waitFor();
    await page.getByText(XSS.slice(0, 50), { exact: true }).waitFor();
    expect(await page.locator('[data-testid=domain-page] img').count()).toBe(0);
    expect(await row(`xss${suffix}`).locator('a').first().getAttribute('href')).toBe(`/account/person?realmId=xss${suffix}`);
    await checkScreen(page, 'domains-list');
    // the template is shown as text in the form, nothing runs
    await row(`xss${suffix}`).locator('[data-testid=realm-edit]').click();
    await page.locator('[data-testid=realm-form]').waitFor();
    expect(await page.locator('#realm-activeEmailTpl').inputValue()).toBe(XSS);
    expect(await page.locator('[data-testid=realm-drawer] img').count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(dialogs).toEqual([]);
  });

  const backends: Record<string, (p: Page) => Promise<void>> = {
    default: async () => {},
    ecogloble: async (p) => {
      await p.locator('[aria-label="区域 1"]').fill('cn');
      await p.locator('[aria-label="主机 1"]').fill('it.example.cn');
      await p.locator('#backend-defaultRegion').fill('cn');
      await p.locator('#backend-appKey').fill('app-key');
      await p.locator('#backend-appSercet').fill('eco-secret-1');
      for (const f of ['getUsersInfo', 'loginpath', 'getVerifyCode', 'loginByVerifyCode', 'userRegistInfo']) await p.locator(`#backend-${f}`).fill(`/${f}`);
    },
    bigdata: async (p) => {
      await p.locator('#backend-host').fill('bigdata.example.com');
      await p.locator('#backend-category').fill('robots');
    },
    aliliving: async (p) => {
      await p.locator('#backend-appCloudKey').fill('cloud-key');
      await p.locator('#backend-appCloudSecret').fill('ali-secret-1');
      await p.locator('#backend-projectRes').fill('a123');
      await p.locator('#backend-appKey').fill('living-key');
    },
  };

  it('creates a domain of each backend type through the form', async () => {
    let first = true;
    for (const [type, fillGroup] of Object.entries(backends)) {
      const id = `${type.slice(0, 3)}${suffix}`;
      await page.locator('[data-testid=realm-create]').click();
      await page.locator('[data-testid=realm-form]').waitFor();
      await page.locator('#realm-id').fill(id);
      await page.locator('#realm-domain').fill(`${id}.example.com`);
      await page.locator('#realm-description').fill(`${type} backend`);
      if (type !== 'default') {
        await page.locator('#realm-backend-type').click();
        await page
          .locator('.ant-select-item-option')
          .filter({ hasText: zh.domains[`type_${type}` as 'type_bigdata'] })
          .click();
        await page.locator('#realm-backend-realm-id').fill('tenant-1');
        await page.locator('#realm-backend-regist-url').fill('https://backend.example.com/register');
        await fillGroup(page);
      }
      if (first) {
        // the form shows today's protection defaults; the required backend group is enforced
        expect(await page.locator('#protection-account-freeFailures').inputValue()).toBe('3');
        expect(await page.locator('#protection-ip-lockAfter').inputValue()).toBe('100');
        await checkScreen(page, 'domains-form');
        first = false;
      }
      await page.locator('[data-testid=realm-save]').click();
      await expectMessage(page, fill(zh.domains.created, { realm: id }));
      const got = await call('GET', realmPaths.realm(id));
      expect(got.data.settings.backend_type).toBe(type);
      expect(got.data.settings.backend?.type ?? 'default').toBe(type);
    }
  });

  it('shows the bigdata group when that type is chosen; the port field keeps to 1–65535', async () => {
    await page.locator('[data-testid=realm-create]').click();
    await page.locator('#realm-backend-type').click();
    await page.locator('.ant-select-item-option').filter({ hasText: zh.domains.type_bigdata }).click();
    await page.locator('#backend-host').waitFor();
    await page.locator('#backend-port').fill('70000');
    await page.locator('#backend-port').blur();
    expect(await page.locator('#backend-port').inputValue()).toBe('65535');
    // the other type's fields are gone, bigdata's required ones say so
    expect(await page.locator('#backend-appSercet').count()).toBe(0);
    await page.locator('[data-testid=realm-save]').click();
    await page.locator('.ant-form-item-explain-error').first().waitFor();
    await checkScreen(page, 'domains-form-bigdata', () => page.locator('#backend-port').scrollIntoViewIfNeeded());
    await page.keyboard.press('Escape');
  });

  it('a logo over 4 KB is refused with the error shown, nothing uploaded', async () => {
    await row(`big${suffix}`).locator('[data-testid=realm-edit]').click();
    await page.locator('[data-testid=branding-logo]').waitFor();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'umbo-logo-'));
    const file = path.join(dir, 'logo.png');
    try {
      writeFileSync(file, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(5000)]));
      await page.locator('#branding-logo').setInputFiles(file);
      const error = page.locator('[data-testid=branding-logo-error]');
      await error.waitFor();
      expect(await error.textContent()).toBe(fill(zh.domains.image_too_large, { size: 5008, max: 4096 }));
      expect((await call('GET', realmPaths.realm(`big${suffix}`))).data.settings.logo_img_url).toBe('');
      await checkScreen(page, 'domains-logo-error', () => error.scrollIntoViewIfNeeded());
      // a small one goes through and is shown
      writeFileSync(file, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200)]));
      await page.locator('#branding-logo').setInputFiles(file);
      await expectMessage(page, zh.domains.image_uploaded);
      await expect.poll(async () => (await call('GET', realmPaths.realm(`big${suffix}`))).data.settings.logo_img_url).toMatch(/branding\/logo\?v=/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await page.keyboard.press('Escape');
  });

  it('deletes a domain with accounts only through the second confirmation naming the count', async () => {
    await row(`xss${suffix}`).locator('[data-testid=realm-more]').click();
    await page.getByRole('menuitem', { name: zh.domains.delete }).click();
    await page.locator('#realm-delete-ok').click();
    const second = page.locator('#realm-delete-everything');
    await second.waitFor();
    expect(await second.textContent()).toBe(fill(zh.domains.delete_everything_confirm, { count: 2 }));
    await checkScreen(page, 'domains-delete-everything');
    await second.click();
    await expectMessage(page, fill(zh.domains.deleted, { realm: `xss${suffix}` }));
    expect((await call('GET', realmPaths.realm(`xss${suffix}`))).code).toBe(1004);
  });

  it('sets the expiry notice days of a domain: 1–3 values of 1–365 days, checked before saving', async () => {
    await row('master').locator('[data-testid=realm-edit]').click();
    await page.locator('[data-testid=realm-form]').waitFor();
    const input = page.locator('#realm-expiry-days');
    const item = page.locator('.ant-form-item').filter({ has: input });
    const tags = item.locator('.ant-select-selection-item');
    // the phone-wide screenshot scrolls the drawer back to the field
    const showField = () => page.locator('#realm-expiry-days').scrollIntoViewIfNeeded();
    await input.scrollIntoViewIfNeeded();
    await expect.poll(() => tags.allTextContents()).toEqual(['30', '7']);
    await item.getByText(zh.domains.expiry_notice_days_help).waitFor();
    await input.fill('400');
    await input.press('Enter');
    await page.locator('[data-testid=realm-save]').click();
    await item.getByText(zh.validation.invalid).waitFor();
    await checkScreen(page, 'domains-expiry-days-invalid', showField);
    await input.press('Backspace');
    await input.fill('90');
    await input.press('Enter');
    await expect.poll(() => tags.allTextContents()).toEqual(['30', '7', '90']);
    await page.locator('[data-testid=realm-save]').click();
    await page.locator('[data-testid=realm-drawer]').waitFor({ state: 'detached' });
    // saved: the form opened again shows the three thresholds
    await row('master').locator('[data-testid=realm-edit]').click();
    await page.locator('[data-testid=realm-form]').waitFor();
    await page.locator('#realm-expiry-days').scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        page
          .locator('.ant-form-item')
          .filter({ has: page.locator('#realm-expiry-days') })
          .locator('.ant-select-selection-item')
          .allTextContents(),
      )
      .toEqual(['30', '7', '90']);
    await checkScreen(page, 'domains-expiry-days', showField);
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=realm-drawer]').waitFor({ state: 'detached' });
  });

  it('reads the same in English and in Arabic (right to left)', async () => {
    await chooseLanguage(page, 'English');
    await page.getByText(en.domains.title).first().waitFor();
    await checkScreen(page, 'domains-list-en');
    await chooseLanguage(page, 'العربية');
    await page.getByText(ar.domains.title).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    // the side menu slides out of a phone-wide window in RTL: let it finish before measuring
    const settle = () => page.waitForTimeout(800);
    await checkScreen(page, 'domains-list-ar', settle);
    await row('master').locator('[data-testid=realm-edit]').click();
    await page.locator('[data-testid=realm-form]').waitFor();
    await checkScreen(page, 'domains-form-ar', settle);
    await page.keyboard.press('Escape');
    await chooseLanguage(page, '简体中文');
    expect(dialogs).toEqual([]);
  });
});
