/**
 * "Refresh from backend" (issue 14) in Chromium, the way an administrator uses it: in a realm
 * whose accounts live behind an IT-interface backend (the reference backend of
 * examples/it-backend, type `default`), two shadow accounts are selected on the person list
 * and refreshed after the confirmation; the result says one was updated and one was already up
 * to date, and the list shows the backend's new user name. In the drawer, the button refreshes
 * one account and says which fields changed. A realm without such a backend offers neither.
 * The result dialog passes checkScreen at 1440 and 390 px in en-US, zh-CN and ar.
 * Screenshots: test-results/browser/people-refresh-<step>-<width>.png.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { en } from '@umbo/contracts/phrases/en/index';
import type { Phrases } from '@umbo/contracts/phrases/types';
import { zhCN as zh } from '@umbo/contracts/phrases/zh-CN/index';
import { ar } from '@umbo/contracts/phrases/ar/index';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_KEY, APP_SECRET, PREFIX, itGroup } from '../../apps/server/src/federation/it/it.testkit.js';
import { defaultRealmSettings } from '../../apps/server/src/realms/realm-settings.js';
import { confirmOk, expectMessage, settle, signInWithCaptcha, waitForShell } from './actions';
import { assertPrerequisites, browserPresent, browserRequired, expectNoCspViolations, launchBrowser, newWatchedPage } from './harness';
import { startInProcessServer, type InProcessServer } from './in-process';
import { checkScreen } from './screen-checks';

const P = en.people.person;
const REF_URL = new URL('../../examples/it-backend/server.mjs', import.meta.url).href;
const hex = () => crypto.randomBytes(3).toString('hex');

describe.skipIf(!browserPresent && !browserRequired)('refresh from the IT backend in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: InProcessServer;
  let browser: Browser;
  let ref: http.Server;
  let refDir = '';
  let backendDb: Database.Database;
  const contexts: BrowserContext[] = [];
  const realmId = `it${hex()}`;
  const saved = process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;
  /** shadow accounts: [id, user name] */
  const users: { id: string; username: string }[] = [];

  const rows = (page: Page) => page.locator('[data-testid=person-row]');
  const row = (page: Page, name: string) => rows(page).filter({ has: page.locator('[data-testid=person-name]', { hasText: new RegExp(`^${name}$`) }) });
  const renameAtBackend = (id: string, username: string) => backendDb.prepare('update users set username = ? where id = ?').run(username, id);

  async function open(locale: string, urlPath: string): Promise<Page> {
    const context = await browser.newContext({ locale, baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const { page } = await newWatchedPage(context);
    await signInWithCaptcha(page, 'admin', server.adminPassword, server.captchaAnswer);
    await page.goto(urlPath);
    await page.locator('[data-testid=person-page]').waitFor();
    return page;
  }

  beforeAll(async () => {
    assertPrerequisites();
    // the reference backend listens on 127.0.0.1: the operator's switch for private targets
    process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';
    server = await startInProcessServer();
    refDir = fs.mkdtempSync(path.join(os.tmpdir(), 'it-refresh-browser-'));
    const mod = (await import(REF_URL)) as { createServer(o: object): http.Server };
    ref = mod.createServer({ db: path.join(refDir, 'users.sqlite'), appKey: APP_KEY, appSecret: APP_SECRET, prefix: PREFIX });
    await new Promise<void>((r) => ref.listen(0, '127.0.0.1', r));
    backendDb = new Database(path.join(refDir, 'users.sqlite'));
    const now = Date.now();
    const group = itGroup('default', (ref.address() as AddressInfo).port);
    await server.ctx.repos.realms.insertRealm({
      id: realmId,
      name: realmId,
      description: 'a realm whose accounts live in an IT backend',
      settings: JSON.stringify({
        ...defaultRealmSettings(),
        backend_type: 'default',
        backend: { ...group, appSercet: server.ctx.secrets.encrypt(APP_SECRET) },
        backend_realm_id: 'tenant-1',
      }),
      created_at: now,
      updated_at: now,
    });
    const settings = await server.ctx.services.realmPolicy.settingsOf(realmId);
    for (let i = 0; i < 2; i++) {
      const a = await server.ctx.services.itFederation.register(realmId, settings, { username: `shadow_${i}_${hex()}`, password: 'Backend-Pass-1' });
      users.push({ id: a.id, username: a.username });
    }
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    backendDb?.close();
    if (ref) {
      ref.closeAllConnections();
      await new Promise<void>((r) => ref.close(() => r()));
    }
    await server?.stop();
    if (refDir) fs.rmSync(refDir, { recursive: true, force: true });
    if (saved === undefined) delete process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;
    else process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = saved;
  });

  it('refreshes the selection after the confirmation; the result says what happened; the list shows the new name', async () => {
    const [a, b] = users as [(typeof users)[0], (typeof users)[0]];
    const renamed = `renamed_${hex()}`;
    renameAtBackend(a.id, renamed);
    const page = await open('en-US', `/account/person?realmId=${realmId}`);
    await expect.poll(() => row(page, b.username).count()).toBe(1);
    for (const name of [a.username, b.username]) await row(page, name).locator('.ant-checkbox-input').check();
    await page.locator('[data-testid=person-bulk-refresh]').click();
    await page.locator('.ant-modal-confirm-title', { hasText: P.confirm_bulk_refresh.replace('{{count}}', '2') }).waitFor();
    await confirmOk(page);
    const result = page.locator('[data-testid=person-refresh-result]');
    await result.waitFor();
    expect(await result.locator('[data-testid=person-refresh-updated]').textContent()).toBe(P.refresh_updated.replace('{{count}}', '1'));
    expect(await result.locator('[data-testid=person-refresh-unchanged]').textContent()).toBe(P.refresh_unchanged.replace('{{count}}', '1'));
    await checkScreen(page, 'people-refresh-result-en');
    await settle(page);
    await page.locator('.ant-modal-close').click();
    await expect.poll(() => row(page, renamed).count()).toBe(1);
    a.username = renamed;
  });

  it('the drawer refreshes one account and names the fields that changed', async () => {
    const b = users[1]!;
    const renamed = `drawer_${hex()}`;
    renameAtBackend(b.id, renamed);
    const page = await open('en-US', `/account/person?realmId=${realmId}`);
    await row(page, b.username).locator('[data-testid=person-name]').click();
    const drawer = page.locator('[data-testid=person-drawer]');
    await drawer.locator('[data-testid=person-refresh-button]').click();
    await expectMessage(page, P.refresh_one_updated.replace('{{fields}}', P.username));
    await expect.poll(() => drawer.locator('[data-testid=person-detail-username]').textContent()).toBe(renamed);
    b.username = renamed;
  });

  it('a realm that keeps its accounts itself offers no refresh', async () => {
    const page = await open('en-US', '/account/person');
    // the page asks whether the realm has a backend: only after that answer is "no button" a finding
    const answered = page.waitForResponse((r) => r.url().includes('/accounts/bulk/refresh') && r.request().method() === 'GET');
    await page.reload();
    expect(await (await answered).json()).toMatchObject({ data: { backend: null } });
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    await rows(page).first().locator('.ant-checkbox-input').check();
    await page.locator('[data-testid=person-bulk-disable]').waitFor();
    expect(await page.locator('[data-testid=person-bulk-refresh]').count()).toBe(0);
    await rows(page).first().locator('[data-testid=person-name]').click();
    await page.locator('[data-testid=person-drawer] [data-testid=person-detail-username]').waitFor();
    expect(await page.locator('[data-testid=person-refresh-button]').count()).toBe(0);
  });

  it.each([
    ['zh-CN', zh],
    ['ar', ar],
  ] as const)('the result dialog in %s', async (locale, phrases: Phrases) => {
    const page = await open(locale, `/account/person?realmId=${realmId}`);
    const a = users[0]!;
    await expect.poll(() => row(page, a.username).count()).toBe(1);
    await row(page, a.username).locator('.ant-checkbox-input').check();
    await page.locator('[data-testid=person-bulk-refresh]').click();
    await confirmOk(page);
    const unchanged = page.locator('[data-testid=person-refresh-result] [data-testid=person-refresh-unchanged]');
    await expect.poll(() => unchanged.textContent()).toBe(phrases.people.person.refresh_unchanged.replace('{{count}}', '1'));
    await checkScreen(page, `people-refresh-result-${locale}`);
  });
});
