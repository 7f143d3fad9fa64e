/**
 * Issue 3's browser scenario against the real server: the account centre, the outbox showing
 * a binding code, turning the one-time password on (codes computed here per RFC 6238 from
 * the key the dialog shows), signing in with it, turning it off, and changing the password.
 * Screenshots: test-results/browser/security-<nn>-<locale>-<step>.png (zh-CN, en-US, ar).
 */
import { accountPaths } from '@umbo/contracts/paths';
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import { zhCN } from '@umbo/contracts/phrases/zh-CN/index';
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { askLogout, chooseLanguage, expectMessage, signIn, waitForShell } from './actions';
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
const NEW_PASSWORD = 'Fresh-Browser-Pa55-9';

/** RFC 4648 base32 without padding. */
function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of text.replace(/=+$/, '').toUpperCase()) {
    value = (value << 5) | alphabet.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 6238 TOTP: HMAC-SHA1, 30 s steps, 6 digits, for a given step. */
function totpAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const bin = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(bin).padStart(6, '0');
}

const stepNow = () => Math.floor(Date.now() / 30_000);

async function apiLogin(baseUrl: string, password: string, otp?: string): Promise<{ code: number; data?: { token: string; expiresAt: number } }> {
  const res = await fetch(`${baseUrl}/api/users/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password, ...(otp ? { otp } : {}) }),
  });
  return (await res.json()) as { code: number; data?: { token: string; expiresAt: number } };
}

describe.skipIf(!browserPresent && !browserRequired)('account security in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watch: PageWatch;
  let secret = '';
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ locale: ZH_BROWSER, baseURL: server.baseUrl, viewport: { width: 1280, height: 900 } });
    ({ page, watch } = await newWatchedPage(context));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the account centre', async () => {
    await page.goto('/');
    await page.locator('[data-testid=login-form]').waitFor();
    await signIn(page, 'admin', server.adminPassword);
    await waitForShell(page);
    await page.locator('[data-testid=account-username]').filter({ hasText: 'admin' }).waitFor();
    await page.getByText(zh.account.account_mark).waitFor();
    await page.getByText(zh.account.regist_time).waitFor();
    await screenshot(page, 'account-center');
  });

  it('checks a new user name with the server’s own rule before sending it', async () => {
    await page.locator('[data-testid=edit-username]').click();
    const input = page.locator('#username-input');
    // The message under the field, as the dialog shows it.
    const error = page.locator('.ant-modal .ant-form-item-explain-error');
    await input.fill('a b');
    await expect.poll(() => error.allTextContents()).toEqual([zh.validation.username]);
    await input.fill('');
    await expect.poll(() => error.allTextContents()).toEqual([zh.validation.required]);
    await input.fill('admin');
    await expect.poll(() => error.allTextContents()).toEqual([zh.validation.username_same]);
    await input.fill('admin_2');
    await expect.poll(() => error.count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-testid=account-username]').textContent()).toBe('admin');
  });

  it('lists a binding code in the outbox', async () => {
    const login = await apiLogin(server.baseUrl, server.adminPassword);
    expect(login.code).toBe(0);
    const res = await fetch(`${server.baseUrl}${accountPaths.bindCode}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.data!.token}` },
      body: JSON.stringify({ channel: 'email', email: 'newcomer@example.com', password: server.adminPassword }),
    });
    expect(((await res.json()) as { code: number }).code).toBe(0);

    await page.locator('[data-testid=area-switch]').getByText(zh.menu.area_domain).click();
    await page.locator('[data-testid=nav-menu]').getByText(zh.menu.outbox, { exact: true }).click();
    await page.waitForURL('**/account/outbox?**');
    await page.locator('[data-testid=outbox-row]').filter({ hasText: 'newcomer@example.com' }).first().waitFor();
    await screenshot(page, 'outbox');
  });

  it('turns the one-time password on with two consecutive codes', async () => {
    await page.goto('/account/security');
    await page.locator('[data-testid=otp-enable]').click();
    await page.locator('#otp-password').fill(server.adminPassword);
    await page.locator('[data-testid=otp-setup-submit]').click();
    await page.locator('[data-testid=otp-qr]').waitFor();
    secret = /[A-Z2-7]{16,}/.exec((await page.locator('[data-testid=otp-secret]').textContent()) ?? '')?.[0] ?? '';
    expect(secret).not.toBe('');
    await screenshot(page, 'otp-setup');

    const now = stepNow();
    await page.locator('#otp-first-code').fill(totpAt(secret, now - 1));
    await page.locator('#otp-second-code').fill(totpAt(secret, now));
    await page.locator('[data-testid=otp-codes-submit]').click();
    const list = page.locator('[data-testid=otp-recovery-codes] li');
    await list.first().waitFor();
    expect(await list.count()).toBe(10);
    recoveryCodes = (await list.allTextContents()).map((s) => s.trim());
    await screenshot(page, 'otp-recovery-codes');
    // Issue 10: the codes can be kept as a text file, one per line.
    expect(await page.locator('[data-testid=otp-recovery-copy]').textContent()).toBe(zh.account.otp_recovery_copy);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=otp-recovery-download]').click()]);
    expect(download.suggestedFilename()).toBe('recovery-codes.txt');
    const saved = await download.path();
    expect((await readFile(saved, 'utf8')).trim().split('\n')).toEqual(recoveryCodes);
    await page.locator('[data-testid=otp-recovery-done]').click();
    await page.locator('[data-testid=otp-status]').filter({ hasText: zh.account.otp_enabled }).waitFor();
  });

  it('signs out and back in with the one-time password', async () => {
    await askLogout(page, zh);
    await page.locator('.ant-modal-confirm .ant-btn-primary').click();
    await page.locator('[data-testid=login-form]').waitFor();

    expect((await apiLogin(server.baseUrl, server.adminPassword)).code).toBe(1503);
    // The enabling codes are spent (steps up to now); the next step is still within ±1.
    const login = await apiLogin(server.baseUrl, server.adminPassword, totpAt(secret, stepNow() + 1));
    expect(login.code).toBe(0);
    await page.evaluate(({ token, expire }) => localStorage.setItem('access_token', JSON.stringify({ value: token, expire })), {
      token: login.data!.token,
      expire: login.data!.expiresAt,
    });
    await page.goto('/account/security');
    await waitForShell(page);
    await page.locator('[data-testid=otp-status]').filter({ hasText: zh.account.otp_enabled }).waitFor();
  });

  it('turns the one-time password off with the password and a recovery code', async () => {
    await page.locator('[data-testid=otp-disable]').click();
    await page.getByText(zh.account.otp_use_recovery).click();
    await page.locator('#otp-disable-password').fill(server.adminPassword);
    await page.locator('#otp-recovery-code').fill(recoveryCodes[0]!);
    await screenshot(page, 'otp-disable');
    await page.locator('[data-testid=otp-disable-submit]').click();
    await page.locator('[data-testid=otp-status]').filter({ hasText: zh.account.otp_disabled }).waitFor();
    expect((await apiLogin(server.baseUrl, server.adminPassword)).code).toBe(0);
  });

  it('changes the password, showing its strength', async () => {
    await page.locator('#old-password').fill(server.adminPassword);
    // SPEC §5's own words when the two differ.
    await page.locator('#new-password').fill(NEW_PASSWORD);
    await page.locator('#confirm-password').fill(`${NEW_PASSWORD}x`);
    await page.locator('[data-testid=password-submit]').click();
    await page.locator('[data-testid=password-card] .ant-form-item-explain-error').filter({ hasText: zh.validation.password_mismatch }).waitFor();
    await page.locator('#new-password').fill('aaaaaa');
    await page.locator('[data-testid=password-strength][data-strength=low]').waitFor();
    await page.locator('#new-password').fill(NEW_PASSWORD);
    await page.locator('[data-testid=password-strength][data-strength=strong]').waitFor();
    await page.locator('#confirm-password').fill(NEW_PASSWORD);
    await screenshot(page, 'change-password');
    await page.locator('[data-testid=password-submit]').click();
    await expectMessage(page, zh.account.password_changed);
    expect((await apiLogin(server.baseUrl, server.adminPassword)).code).not.toBe(0);
    expect((await apiLogin(server.baseUrl, NEW_PASSWORD)).code).toBe(0);
  });

  it('reads in English and Arabic', async () => {
    await chooseLanguage(page, 'English');
    await page.getByText(en.account.sessions_title).waitFor();
    await screenshot(page, 'security');
    await page.goto('/account/outbox');
    await page.locator('[data-testid=outbox-page]').getByText(en.security.outbox_recipient).first().waitFor();
    await screenshot(page, 'outbox');
    await chooseLanguage(page, 'العربية');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.locator('[data-testid=outbox-page]').getByText(ar.security.outbox_recipient).first().waitFor();
    await screenshot(page, 'outbox');
    await page.goto('/account/security');
    await page.getByText(ar.account.sessions_title).waitFor();
    await screenshot(page, 'security');
    await page.goto('/account/center');
    await page.getByText(ar.account.account_mark).waitFor();
    await screenshot(page, 'account-center');
  });

  it('raised no CSP violation and no page error', () => {
    expect(watch.cspViolations).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
  });
});
