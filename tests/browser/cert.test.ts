/**
 * Issue 13's console pages in Chromium, the way an administrator uses them: a key generated
 * (its private key handed over once), a certificate issued from it, another issued from an
 * openssl CSR uploaded as a file (an empty CSR says "The csr content is empty"; changing the
 * common-name type clears the SAN entries, SPEC §4), one revoked with an RFC 5280 reason and
 * seen in the issue record, a certificate and key converted to PKCS#12 (opened by openssl
 * with the password), a CSR decoded; the domain's chain and account root certificates.
 * The intermediate renewed behind a confirmation (the expiry notice days are in domains.test);
 * last, an account CA revoked and replaced behind a confirmation by a CA on a new key.
 * openssl is the judge of what the console hands over. Every screen passes checkScreen at
 * 1440 and 390 px in en-US, zh-CN and ar; a decoded CSR's labels are in the page's language.
 * Screenshots: test-results/browser/cert-<nn>-<locale>-<step>.png.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ar } from '@umbo/contracts/phrases/ar/index';
import { en } from '@umbo/contracts/phrases/en/index';
import type { Phrases } from '@umbo/contracts/phrases/types';
import { zhCN as zh } from '@umbo/contracts/phrases/zh-CN/index';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { confirmOk, expectMessage, settle, signInWithCaptcha } from './actions';
import { assertPrerequisites, browserPresent, browserRequired, expectNoCspViolations, launchBrowser, newWatchedPage } from './harness';
import { startInProcessServer, type InProcessServer } from './in-process';
import { checkScreen } from './screen-checks';

const C = en.cert;

function openssl(args: string[], input?: string): string {
  try {
    return execFileSync('openssl', args, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('openssl is missing: apt-get install -y openssl mosquitto');
    throw err;
  }
}

describe.skipIf(!browserPresent && !browserRequired)('device CA pages in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: InProcessServer;
  let browser: Browser;
  let work = '';
  const dialogs: string[] = [];
  const contexts: BrowserContext[] = [];
  /** The certificate issued from the openssl CSR, for the tools. */
  let csrCertPem = '';

  async function open(locale: string, urlPath: string): Promise<Page> {
    const context = await browser.newContext({
      locale,
      baseURL: server.baseUrl,
      viewport: { width: 1440, height: 900 },
      acceptDownloads: true,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    contexts.push(context);
    const { page } = await newWatchedPage(context);
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await signInWithCaptcha(page, 'admin', server.adminPassword, server.captchaAnswer);
    await page.goto(urlPath);
    return page;
  }

  const certRow = (page: Page, cn: string) => page.locator('[data-testid=cert-row]').filter({ has: page.locator('[data-testid=cert-cn]', { hasText: cn }) });

  /** Chooses an option of an antd Select by its visible text. */
  async function choose(page: Page, selector: string, option: string) {
    await settle(page);
    await page.locator(selector).click();
    await settle(page);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
    await settle(page);
  }

  beforeAll(async () => {
    assertPrerequisites();
    work = mkdtempSync(path.join(os.tmpdir(), 'umbo-cert-browser-'));
    // the device's own key and request, made the way a device maker would
    openssl([
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      path.join(work, 'device.key'),
      '-out',
      path.join(work, 'device.csr'),
      '-subj',
      '/CN=robot-csr',
    ]);
    server = await startInProcessServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('generates a key and hands its private key over once', async () => {
    const page = await open('en-US', '/account/cert/keys');
    await page.locator('[data-testid=keys-page]').waitFor();
    await checkScreen(page, 'keys-empty-en');
    await page.locator('[data-testid=key-generate]').click();
    await page.locator('#key-name').fill('robot_key1');
    await page.locator('#key-description').fill('robot fleet key');
    await page.locator('[data-testid=key-return-private]').check();
    await page.locator('[data-testid=key-generate-dialog]').getByText(C.key_private_once).waitFor();
    await checkScreen(page, 'key-generate-en');
    await page.locator('[data-testid=key-generate-submit]').click();
    const dialog = page.locator('[data-testid=private-key-dialog]');
    await dialog.getByText(C.key_private_once).waitFor();
    const keyPem = (await dialog.locator('[data-testid=private-key-text]').textContent()) ?? '';
    expect(keyPem).toContain('-----BEGIN PRIVATE KEY-----');
    // openssl reads the key it was given: an EC P-256 key
    expect(openssl(['pkey', '-noout', '-text'], keyPem)).toMatch(/prime256v1|P-256/);
    const download = page.waitForEvent('download');
    await dialog.locator('[data-testid=private-key-download]').click();
    expect(readFileSync((await (await download).path())!, 'utf8')).toBe(keyPem);
    await page.mouse.move(0, 0);
    await checkScreen(page, 'private-key-en');
    await page.locator('[data-testid=private-key-done]').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('[data-testid=key-row]').count()).toBe(1);
    await checkScreen(page, 'keys-en');
  });

  it('issues a certificate from the managed key; changing the CN type clears the SAN entries', async () => {
    const page = await open('en-US', '/account/cert/list');
    await page.locator('[data-testid=cert-list-page]').waitFor();
    await page.locator('[data-testid=cert-issue]').click();
    const drawer = page.locator('[data-testid=issue-drawer]');
    await drawer.locator('[data-testid=issue-form]').waitFor();
    // PEM source is first: an empty request is refused with SPEC §8's words
    await page.locator('[data-testid=issue-cn]').fill('robot-0001');
    await page.locator('[data-testid=issue-submit]').click();
    await drawer.getByText(en.errors.csr_empty).waitFor();
    // SPEC §4: a new common-name type clears every SAN entry
    await choose(page, '#issue-cn-type', C.cn_type_dns);
    await page.locator('[data-testid=san-add]').click();
    await page.locator('[data-testid=san-value]').first().fill('robot.example.com');
    await expect.poll(() => page.locator('[data-testid=san-row]').count()).toBe(1);
    await choose(page, '#issue-cn-type', C.cn_type_deviceId);
    await expect.poll(() => page.locator('[data-testid=san-row]').count()).toBe(0);
    await checkScreen(page, 'issue-drawer-en');

    await drawer.locator('[data-testid=issue-source-key]').click();
    await choose(page, '#issue-key', 'robot_key1');
    await page.locator('#issue-desc').fill('first robot');
    await page.locator('[data-testid=issue-submit]').click();
    const view = page.locator('[data-testid=cert-view-drawer]');
    await view.locator('[data-testid=cert-pem-text]').waitFor();
    const pem = (await view.locator('[data-testid=cert-pem-text]').textContent()) ?? '';
    const sn = ((await view.locator('[data-testid=cert-view-sn]').textContent()) ?? '').trim();
    // the serial shown in decimal is the certificate's own (openssl prints it in hex)
    const hex = openssl(['x509', '-noout', '-serial'], pem)
      .trim()
      .replace(/^serial=/, '');
    expect(BigInt(`0x${hex}`).toString()).toBe(sn);
    expect(openssl(['x509', '-noout', '-subject'], pem)).toContain('robot-0001');
    await page.mouse.move(0, 0);
    await checkScreen(page, 'cert-view-en');
    await page.keyboard.press('Escape');
    await expect.poll(() => certRow(page, 'robot-0001').count()).toBe(1);
  });

  it('issues a certificate from an uploaded openssl CSR', async () => {
    const page = await open('en-US', '/account/cert/list?modal=issue');
    const drawer = page.locator('[data-testid=issue-drawer]');
    await drawer.locator('[data-testid=issue-form]').waitFor();
    await page.locator('[data-testid=issue-csr-file]').setInputFiles(path.join(work, 'device.csr'));
    await expect.poll(() => page.locator('#issue-csr').inputValue()).toContain('BEGIN CERTIFICATE REQUEST');
    await choose(page, '#issue-cn-type', C.cn_type_dns);
    await page.locator('[data-testid=issue-cn]').fill('robot2.example.com');
    await page.locator('[data-testid=san-add]').click();
    await page.locator('[data-testid=san-value]').first().fill('robot2.example.com');
    await page.locator('[data-testid=issue-submit]').click();
    const view = page.locator('[data-testid=cert-view-drawer]');
    await view.locator('[data-testid=cert-pem-text]').waitFor();
    csrCertPem = (await view.locator('[data-testid=cert-pem-text]').textContent()) ?? '';
    const text = openssl(['x509', '-noout', '-text'], csrCertPem);
    expect(text).toContain('DNS:robot2.example.com');
    // the certificate carries the CSR's key
    const certKey = openssl(['x509', '-noout', '-pubkey'], csrCertPem);
    expect(certKey).toBe(openssl(['pkey', '-pubout', '-in', path.join(work, 'device.key')]));
    await page.keyboard.press('Escape');
    await expect.poll(() => certRow(page, 'robot2.example.com').count()).toBe(1);
  });

  it('revokes a certificate with a reason and shows it in the issue record', async () => {
    const page = await open('en-US', '/account/cert/list');
    await expect.poll(() => certRow(page, 'robot-0001').count()).toBe(1);
    await checkScreen(page, 'cert-list-en');
    await certRow(page, 'robot-0001').locator('[data-testid=cert-revoke]').click();
    const dialog = page.locator('[data-testid=revoke-dialog]');
    await dialog.getByText(C.revoke_warning).waitFor();
    await choose(page, '#revoke-reason', C.reason_keyCompromise);
    await checkScreen(page, 'revoke-en');
    await page.locator('[data-testid=revoke-submit]').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => certRow(page, 'robot-0001').locator('[data-testid=cert-status]').textContent()).toBe(C.status_revoked);
    expect(await certRow(page, 'robot-0001').locator('[data-testid=cert-revoke-status]').textContent()).toContain(C.reason_keyCompromise);
    // the status filter finds it; a serial that is not a number is refused before it is sent
    await choose(page, '#cert-filter-status', C.status_revoked);
    await page.locator('[data-testid=cert-filter-apply]').click();
    await expect.poll(() => page.locator('[data-testid=cert-row]').count()).toBe(1);
    await page.locator('#cert-filter-sn').fill('12ab');
    await page.getByText(en.validation.serial).waitFor();

    await page.goto('/account/cert/certRecord');
    await page.locator('[data-testid=cert-record-page]').waitFor();
    const revoked = page.locator('[data-testid=record-row]').filter({ has: page.locator('[data-testid=record-kind]', { hasText: C.kind_revoke }) });
    await expect.poll(() => revoked.count()).toBe(1);
    expect(await revoked.textContent()).toContain('robot-0001');
    expect(await revoked.textContent()).toContain(C.reason_keyCompromise);
    await expect.poll(() => page.locator('[data-testid=record-row]').count()).toBe(3);
    await checkScreen(page, 'records-en');
  });

  it('converts a certificate and its key to PKCS#12 that openssl opens, and decodes a CSR', async () => {
    expect(csrCertPem).toContain('BEGIN CERTIFICATE');
    const page = await open('en-US', '/account/cert/other');
    await page.locator('[data-testid=convert-panel]').waitFor();
    await choose(page, '#convert-to', C.format_pkcs12);
    await page.locator('#convert-pem').fill(csrCertPem);
    await page.locator('#convert-key').fill(readFileSync(path.join(work, 'device.key'), 'utf8'));
    await page.locator('#convert-password').fill('p12-Secret-9');
    await checkScreen(page, 'convert-en');
    const download = page.waitForEvent('download');
    await page.locator('[data-testid=convert-run]').click();
    const file = path.join(work, 'out.p12');
    await (await download).saveAs(file);
    // OpenSSL 3 opens it without -legacy: PBES2 / AES-256 / SHA-256 MAC
    const opened = openssl(['pkcs12', '-in', file, '-passin', 'pass:p12-Secret-9', '-nodes']);
    expect(opened).toContain('BEGIN CERTIFICATE');
    expect(opened).toContain('BEGIN PRIVATE KEY');

    await page.locator('[data-testid=tab-view-csr]').click();
    const panel = page.locator('[data-testid=decode-csr-panel]');
    await panel.locator('[data-testid=decode-csr-run]').click();
    await panel.getByText(en.errors.csr_empty).waitFor();
    await page.locator('#decode-csr').fill(readFileSync(path.join(work, 'device.csr'), 'utf8'));
    await panel.locator('[data-testid=decode-csr-run]').click();
    await panel.locator('[data-testid=decode-csr-result]').waitFor();
    await expect.poll(() => panel.locator('[data-testid=decode-csr-result]').textContent()).toContain('robot-csr');
    await checkScreen(page, 'view-csr-en');
    await page.locator('[data-testid=tab-download-ca]').click();
    const chain = page.waitForEvent('download');
    await page.locator('[data-testid=download-ca-pem]').click();
    const chainFile = path.join(work, 'chain.pem');
    await (await chain).saveAs(chainFile);
    writeFileSync(path.join(work, 'leaf.pem'), csrCertPem);
    // the downloaded chain verifies the certificate issued from the CSR
    expect(openssl(['verify', '-CAfile', chainFile, path.join(work, 'leaf.pem')])).toContain('OK');
    await checkScreen(page, 'download-ca-en');
  });

  it("shows the domain's chain and its account root certificates", async () => {
    const page = await open('en-US', '/account/domain/cert');
    await page.locator('[data-testid=chain-root]').waitFor();
    await page.locator('[data-testid=chain-intermediate]').waitFor();
    await expect.poll(() => page.locator('[data-testid=account-ca-row]').count()).toBeGreaterThan(0);
    await checkScreen(page, 'domain-cert-en');
    await page.locator('[data-testid=account-ca-name]').first().click();
    await page.locator('[data-testid=account-ca-pem-text]').waitFor();
    await checkScreen(page, 'account-ca-en');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=account-ca-drawer]').waitFor({ state: 'detached' });

    // renewing the intermediate asks first, then shows a new serial with the same subject
    const intermediate = page.locator('[data-testid=chain-intermediate]');
    // bordered Descriptions: a table row per fact, its label in the th
    const cell = (label: string) =>
      intermediate
        .locator('tr')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('td');
    const serial = () => cell(C.serial).textContent();
    const subject = await cell(C.subject).textContent();
    const before = await serial();
    await intermediate.locator('[data-testid=intermediate-renew]').click();
    const confirmBox = page.locator('.ant-modal-confirm');
    await confirmBox.locator('.ant-modal-confirm-title', { hasText: C.confirm_renew_intermediate }).waitFor();
    await checkScreen(page, 'intermediate-renew-confirm-en');
    await confirmBox.locator('.ant-btn-primary').click();
    await page.getByText(C.renewed_intermediate).first().waitFor();
    await expect.poll(serial).not.toBe(before);
    expect(await cell(C.subject).textContent()).toBe(subject);

    // the platform root the same way (an administrator of master), after its own confirmation
    const root = page.locator('[data-testid=chain-root]');
    const rootSerial = () =>
      root
        .locator('tr')
        .filter({ has: page.getByText(C.serial, { exact: true }) })
        .locator('td')
        .textContent();
    const rootBefore = await rootSerial();
    await root.locator('[data-testid=root-renew]').click();
    await confirmBox.locator('.ant-modal-confirm-title', { hasText: C.confirm_renew_root }).waitFor();
    await checkScreen(page, 'root-renew-confirm-en');
    await confirmBox.locator('.ant-btn-primary').click();
    await page.getByText(C.renewed_root).first().waitFor();
    await expect.poll(rootSerial).not.toBe(rootBefore);
    expect(dialogs).toEqual([]);
  });

  it.each([
    ['zh-CN', zh],
    ['ar', ar],
  ] as const)('shows every cert screen in %s', async (locale, phrases: Phrases) => {
    const P = phrases.cert;
    const page = await open(locale, '/account/cert/keys');
    await expect.poll(() => page.locator('[data-testid=key-row]').count()).toBe(1);
    await checkScreen(page, `keys-${locale}`);
    await page.locator('[data-testid=key-generate]').click();
    await page.locator('[data-testid=key-generate-dialog]').getByText(P.key_return_private, { exact: true }).waitFor();
    await checkScreen(page, `key-generate-${locale}`);
    await page.keyboard.press('Escape');

    await page.goto('/account/cert/list');
    await expect.poll(() => page.locator('[data-testid=cert-row]').count()).toBe(2);
    await checkScreen(page, `cert-list-${locale}`);
    await page.locator('[data-testid=cert-issue]').click();
    await page.locator('[data-testid=issue-form]').waitFor();
    await checkScreen(page, `issue-drawer-${locale}`);
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=issue-drawer]').waitFor({ state: 'detached' });
    await certRow(page, 'robot2.example.com').locator('[data-testid=cert-cn]').click();
    await page.locator('[data-testid=cert-pem-text]').waitFor();
    await checkScreen(page, `cert-view-${locale}`);

    await page.goto('/account/cert/certRecord');
    await expect.poll(() => page.locator('[data-testid=record-row]').count()).toBe(3);
    await checkScreen(page, `records-${locale}`);
    await page.goto('/account/cert/other');
    await page.locator('[data-testid=convert-panel]').getByText(P.convert_intro).waitFor();
    await checkScreen(page, `tools-${locale}`);
    // the decoded CSR's labels are in the page's language (the server sends keys)
    await page.locator('[data-testid=tab-view-csr]').click();
    const decoded = page.locator('[data-testid=decode-csr-panel]');
    await page.locator('#decode-csr').fill(readFileSync(path.join(work, 'device.csr'), 'utf8'));
    await decoded.locator('[data-testid=decode-csr-run]').click();
    const result = decoded.locator('[data-testid=decode-csr-result]');
    await result.getByText(P.decoded_group_request, { exact: true }).waitFor();
    await result.getByText(P.decoded_signature_algorithm, { exact: true }).waitFor();
    expect(await result.getByText(en.cert.decoded_signature_algorithm, { exact: true }).count()).toBe(0);
    await checkScreen(page, `view-csr-${locale}`);
    await page.goto('/account/domain/cert');
    await page.locator('[data-testid=chain-root]').getByText(P.chain_root, { exact: true }).waitFor();
    await checkScreen(page, `domain-cert-${locale}`);
    expect(dialogs).toEqual([]);
  });

  // Last: it revokes the account CA the certificates above were issued from.
  it('replaces a revoked account CA with a new CA on a new key', async () => {
    const page = await open('en-US', '/account/domain/cert');
    const rows = page.locator('[data-testid=account-ca-row]');
    const withStatus = (status: string) => rows.filter({ has: page.getByText(status, { exact: true }) });
    /** Serial, fingerprint and PEM as the CA's drawer shows them. */
    async function caFacts(row: Locator) {
      await row.locator('[data-testid=account-ca-name]').click();
      const drawer = page.locator('[data-testid=account-ca-drawer]');
      const pem = drawer.locator('[data-testid=account-ca-pem-text]');
      await pem.waitFor();
      const fact = (label: string) =>
        drawer
          .locator('tr')
          .filter({ has: page.getByText(label, { exact: true }) })
          .locator('td')
          .textContent();
      const facts = { sn: await fact(C.serial), fingerprint: await fact(C.fingerprint), pem: (await pem.textContent()) ?? '' };
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
      return facts;
    }
    await expect.poll(() => rows.count()).toBe(1);
    const before = await caFacts(rows.first());
    await rows.first().getByRole('button', { name: C.revoke, exact: true }).click();
    const dialog = page.locator('[data-testid=revoke-dialog]');
    await dialog.getByText(C.ca_revoke_warning, { exact: true }).waitFor();
    await choose(page, '#revoke-reason', C.reason_keyCompromise);
    await page.locator('[data-testid=revoke-submit]').click();
    await dialog.waitFor({ state: 'detached' });
    // the CA's own wording, not the certificate's ("Certificate revoked"): exact text
    await page.locator('.ant-message-notice').getByText(C.ca_revoked_done, { exact: true }).first().waitFor();
    const revoked = withStatus(C.status_revoked);
    await expect.poll(() => revoked.count()).toBe(1);
    // a revoked key is never renewed: the row offers a replacement instead of renew and revoke
    await revoked.getByRole('button', { name: C.replace, exact: true }).waitFor();
    for (const gone of [C.renew, C.revoke]) expect(await revoked.getByRole('button', { name: gone, exact: true }).count()).toBe(0);
    // at phone width the list sits below the chain and scrolls sideways: show its action
    const showReplace = () => revoked.getByRole('button', { name: C.replace, exact: true }).scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await checkScreen(page, 'account-ca-revoked-en', showReplace);

    await revoked.getByRole('button', { name: C.replace, exact: true }).click();
    const confirmBox = page.locator('.ant-modal-confirm');
    await expect.poll(() => confirmBox.locator('.ant-modal-confirm-title').textContent()).toBe(C.confirm_replace.replace('{{name}}', 'admin'));
    expect(await confirmBox.locator('.ant-modal-confirm-content').textContent()).toBe(C.confirm_replace_detail);
    await checkScreen(page, 'account-ca-replace-confirm-en');
    await confirmOk(page);
    await expectMessage(page, C.replaced);
    // the revoked CA stays listed beside its successor, which is current
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => revoked.count()).toBe(1);
    const current = withStatus(C.status_valid);
    await expect.poll(() => current.count()).toBe(1);
    const after = await caFacts(current);
    expect(after.sn).not.toBe(before.sn);
    expect(after.fingerprint).not.toBe(before.fingerprint);
    // a new key, not the revoked one renewed: openssl reads two different public keys
    const publicKey = (pem: string) => openssl(['x509', '-noout', '-pubkey'], pem);
    expect(publicKey(after.pem)).toContain('BEGIN PUBLIC KEY');
    expect(publicKey(after.pem)).not.toBe(publicKey(before.pem));
    await page.mouse.move(0, 0);
    await checkScreen(page, 'account-ca-replaced-en', showReplace);
    expect(dialogs).toEqual([]);
  });
});
