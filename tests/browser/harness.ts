/**
 * What the browser suite stands on: Debian's Chromium (required under CI), the built console
 * (apps/web/dist) and a real server on a free port with a fresh data directory. Set
 * UMBO_BROWSER_URL (and ADMIN_PASSWORD) to drive an already running server instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const root = path.resolve(import.meta.dirname, '../..');
export const shotsDir = path.join(root, 'test-results/browser');
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const browserRequired = process.env.CI === 'true' || process.env.UMBO_REQUIRE_BROWSER === '1';
export const browserPresent = existsSync(chromiumPath);

if (!browserPresent && !browserRequired) {
  const bar = '!'.repeat(78);
  console.warn(`\n${bar}\n!! BROWSER SUITE SKIPPED: no Chromium at ${chromiumPath}.\n!! install it: apt-get install chromium\n${bar}\n`);
}

/** Fails loudly where the suite must run but cannot. */
export function assertPrerequisites(): void {
  if (!browserPresent) throw new Error(`no Chromium at ${chromiumPath}; install it: apt-get install chromium`);
  if (!process.env.UMBO_BROWSER_URL && !existsSync(path.join(process.env.WEB_DIST || path.join(root, 'apps/web/dist'), 'index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` before the browser suite');
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  baseUrl: string;
  adminPassword: string;
  stop: () => Promise<void>;
}

/**
 * A test cannot read an image captcha, so by default the master realm asks for one only after
 * repeated failures or requests ('after_failures'; flows.test.ts drives it past that point);
 * captcha.test.ts starts one with 'always'. Journeys that must get past the captcha run the
 * server in the test process instead (in-process.ts).
 */
export async function startServer(env: Record<string, string> = { MASTER_CAPTCHA_POLICY: 'after_failures' }): Promise<RunningServer> {
  if (process.env.UMBO_BROWSER_URL) {
    return { baseUrl: process.env.UMBO_BROWSER_URL.replace(/\/$/, ''), adminPassword: process.env.ADMIN_PASSWORD ?? '', stop: async () => {} };
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'umbo-browser-'));
  const adminPassword = 'Browser-suite-Pa55';
  const baseUrl = `http://127.0.0.1:${port}`;
  mkdirSync(shotsDir, { recursive: true });
  const log = createWriteStream(path.join(shotsDir, 'server.log'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let exited = false;
  child.once('exit', () => (exited = true));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`the server exited during start-up; see ${path.join(shotsDir, 'server.log')}`);
    try {
      if ((await fetch(`${baseUrl}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the server did not answer /readyz with 200 within 60 s');
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  const stop = async () => {
    if (!exited) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
      if (!exited) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { baseUrl, adminPassword, stop };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
      // The browser's own language is zh-CN (SPEC §1's default): the sign-in page follows the
      // browser's languages (issue 10), and the suites were written for zh-CN. A context that
      // wants another browser language sets `locale`.
      '--lang=zh-CN',
    ],
  });
}

/** Problems a user would never see but must not exist: CSP violations and uncaught errors. */
export interface PageWatch {
  /** Each names the directive, what it blocked and the screen (path) it happened on. */
  cspViolations: string[];
  pageErrors: string[];
  consoleErrors: string[];
}

/** Every watch this test file opened, and how many of its violations a test has already failed on. */
const watches = new Map<PageWatch, number>();

export async function newWatchedPage(context: BrowserContext): Promise<{ page: Page; watch: PageWatch }> {
  const watch: PageWatch = { cspViolations: [], pageErrors: [], consoleErrors: [] };
  watches.set(watch, 0);
  // In every document of the context, before its own scripts: the browser's report of a
  // blocked script, style, image, frame… goes to the console, where the listener below reads it.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation on ${location.pathname}: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  const page = await context.newPage();
  page.on('console', (msg) => {
    const text = msg.text();
    // Chromium's own console report ("Refused to … because it violates the following Content
    // Security Policy directive …") is caught as well as the event above.
    if (/Content Security Policy|CSP violation/i.test(text)) watch.cspViolations.push(text);
    else if (msg.type() === 'error') watch.consoleErrors.push(text);
  });
  page.on('pageerror', (err) => watch.pageErrors.push(err.message));
  return { page, watch };
}

/**
 * SECURITY.md A-41: fails the test during which any watched page, on any screen, reported a
 * CSP violation (each violation fails one test only). Every browser test file runs it afterEach.
 */
export function expectNoCspViolations(): void {
  const fresh: string[] = [];
  for (const [watch, checked] of watches) {
    fresh.push(...watch.cspViolations.slice(checked));
    watches.set(watch, watch.cspViolations.length);
  }
  expect(fresh, 'CSP violations').toEqual([]);
}

let shotCount = 0;

/** Saves test-results/browser/<suite>-<nn>-<locale>-<name>.png, in step order, for a human to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(shotsDir, { recursive: true });
  const locale = await page.evaluate(() => document.documentElement.lang || 'unknown');
  const suite = path.basename(expect.getState().testPath ?? 'browser', '.test.ts');
  shotCount += 1;
  // Let antd's motions (≤ 0.3 s, driven from script) finish: a half-faded dialog shows nothing.
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(shotsDir, `${suite}-${String(shotCount).padStart(2, '0')}-${locale}-${name}.png`) });
}
