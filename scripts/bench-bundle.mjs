#!/usr/bin/env node
/**
 * Console bundle budgets (issue 2), on the bytes the server actually sends (issue 10): the
 * first load — the page (index.html), its CSS and the JavaScript it loads — fetched from the
 * built server with `Accept-Encoding: br, gzip`, body bytes as received (headers not counted):
 *   - the sign-in page            ≤ 150 KiB
 *   - the signed-in shell         ≤ 450 KiB  (shell + personal center, as after sign-in)
 *   - every other screen          ≤ 100 KiB  (what it loads beyond the page it is reached from)
 * Builds nothing: starts apps/server/dist/main.js (temporary data directory, free port) on
 * apps/web/dist and reads its Vite manifest (`npm run build` first). With --url it measures a
 * server that is already running instead (that server must serve the same apps/web/dist).
 * Usage: node scripts/bench-bundle.mjs [distDir] [--url http://host:port]   — or import { benchBundle }.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = join(root, 'apps/server/dist/main.js');
const KIB = 1024;
export const BUDGETS = { signIn: 150 * KIB, shell: 450 * KIB, screen: 100 * KIB };

/** Source modules (manifest keys, relative to apps/web) that make up each first load. */
const DEFAULT_LOCALE = 'zh-CN';
// The sign-in page is bundled into the entry today; counted too should it become lazy again.
const SIGN_IN = ['index.html', '?src/features/auth/pages/login-page.tsx', `src/lib/i18n/locales/${DEFAULT_LOCALE}.ts`];
const SHELL = [
  'index.html',
  `src/lib/i18n/locales/${DEFAULT_LOCALE}.ts`,
  'src/app/rich-providers.tsx',
  `src/lib/antd-locale/${DEFAULT_LOCALE}.ts`,
  'src/app/shell/basic-layout.tsx',
  'src/features/me/pages/center-page.tsx',
  // Fetched as soon as the shell is up (rich-providers preloads it).
  'src/lib/feedback-host.tsx',
  // Fetched once the signed-in shell is idle (use-shell-effects.ts usePreloadListScreens): what
  // every list screen shares.
  'src/components/data-table.tsx',
];
/** Screens an anonymous visitor can reach from the sign-in page (they come with antd's providers). */
const PUBLIC_RICH = ['src/components/not-available-page.tsx', 'src/components/exception-page.tsx'];
/** Locale chunks are alternatives to the default one, not screens. */
const isLocale = (key) => /^src\/lib\/(i18n\/locales|antd-locale)\//.test(key);

/**
 * The manifest entry of a source module. Vite keys chunks by source path, except a dynamic
 * entry that another chunk also imports from: that one is keyed `_<name>-<hash>.js`.
 */
function entryOf(manifest, key) {
  if (manifest[key]) return manifest[key];
  const name = key
    .split('/')
    .pop()
    .replace(/\.[^.]+$/, '');
  const hits = Object.values(manifest).filter((c) => c.src === key || (c.isDynamicEntry && !c.src && c.name === name));
  if (hits.length !== 1) throw new Error(`not in the Vite manifest: ${key} (is apps/web/dist current?)`);
  return hits[0];
}

/** Files a set of modules loads; a key written `?src/...` is skipped when it has no chunk of its own. */
function closure(manifest, keys) {
  const files = new Set();
  const visit = (key) => {
    if (key.startsWith('?')) {
      key = key.slice(1);
      const name = key
        .split('/')
        .pop()
        .replace(/\.[^.]+$/, '');
      if (!manifest[key] && !Object.values(manifest).some((c) => c.src === key || (c.isDynamicEntry && c.name === name))) return;
    }
    const chunk = key.startsWith('src/') || key === 'index.html' ? entryOf(manifest, key) : manifest[key];
    if (!chunk) throw new Error(`not in the Vite manifest: ${key} (is apps/web/dist current?)`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of keys) visit(key);
  return files;
}

/** index.html is fetched as the sign-in page (a history-mode route; every such route gets the same page). */
const SIGN_IN_URL = '/user/login';

const freePort = () =>
  new Promise((ok) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => ok(p));
    });
  });

/** The built server on `distDir`, on a free port with a throw-away data directory. */
async function startServer(distDir) {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const dataDir = mkdtempSync(join(os.tmpdir(), 'umbo-bench-bundle-'));
  const child = spawn(process.execPath, [SERVER], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: distDir,
      ADMIN_PASSWORD: 'bench-password-1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => {
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { base, stop };
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error('the built server did not become ready');
}

/** GET as a browser would; fetch() would decode the body, node:http counts what came. */
function sent(agent, base, urlPath) {
  return new Promise((ok, fail) => {
    const req = http.get(new URL(urlPath, base), { agent, headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => {
        bytes += chunk.length;
      });
      res.on('end', () => {
        if (res.statusCode !== 200) fail(new Error(`GET ${urlPath}: ${res.statusCode}`));
        else ok({ bytes, encoding: res.headers['content-encoding'] ?? 'identity' });
      });
    });
    req.on('error', fail);
  });
}

export async function benchBundle({ distDir = join(root, 'apps/web/dist'), url, log = console.log } = {}) {
  const manifestPath = join(distDir, '.vite/manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run build\` first`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const server = url ? { base: url.replace(/\/+$/, ''), stop: () => {} } : await startServer(distDir);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  try {
    // Every file a first load may fetch, as sent; the page itself under the name index.html.
    const files = new Set(['index.html']);
    for (const chunk of Object.values(manifest)) {
      files.add(chunk.file);
      for (const css of chunk.css ?? []) files.add(css);
    }
    const got = new Map();
    await Promise.all(
      [...files].map(async (file) => {
        const page = file === 'index.html';
        const a = await sent(agent, server.base, page ? SIGN_IN_URL : `/${file}`);
        const raw = page ? a.bytes : readFileSync(join(distDir, file)).length;
        got.set(file, { ...a, raw });
      }),
    );

    const first = (keys) => withCss(manifest, closure(manifest, keys));
    const total = (files, minus = new Set(), key = 'bytes') => [...files].filter((f) => !minus.has(f)).reduce((n, f) => n + got.get(f)[key], 0);

    const signInFiles = first(SIGN_IN);
    const shellFiles = first(SHELL);
    const rows = [
      { name: 'sign-in page, first load', files: signInFiles, budget: BUDGETS.signIn },
      { name: 'signed-in shell, first load', files: shellFiles, budget: BUDGETS.shell },
    ];

    const counted = new Set([...SIGN_IN, ...SHELL].filter((k) => !k.startsWith('?')));
    const countedFiles = new Set([...counted].map((k) => entryOf(manifest, k).file));
    const screens = Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry && !countedFiles.has(manifest[k].file) && !isLocale(k));
    for (const key of screens) {
      let files = first([key]);
      let minus = shellFiles;
      // Public screens are reached from the sign-in page, with antd's providers: counted from there when that is more.
      if (PUBLIC_RICH.includes(key)) {
        const fromSignIn = first(['src/app/rich-providers.tsx', key]);
        if (total(fromSignIn, signInFiles) > total(files, minus)) [files, minus] = [fromSignIn, signInFiles];
      }
      rows.push({ name: `  lazy ${key}`, files, minus, budget: BUDGETS.screen, detail: true });
    }

    const kib = (n) => `${(n / KIB).toFixed(1).padStart(6)} KiB`;
    log(`Console first loads: bytes sent by ${url ? server.base : 'the built server'} (Accept-Encoding: br, gzip; page, CSS and JavaScript)`);
    let ok = true;
    let worst = { name: '(none)', bytes: 0 };
    for (const row of rows) {
      row.bytes = total(row.files, row.minus);
      const rawBytes = total(row.files, row.minus, 'raw');
      const pass = row.bytes <= row.budget;
      ok &&= pass;
      if (row.detail && row.bytes > worst.bytes) worst = { name: row.name.trim().replace(/^lazy /, ''), bytes: row.bytes };
      log(`${pass ? 'PASS' : 'FAIL'}  ${row.name.padEnd(58)} ${kib(row.bytes)}  (budget ${kib(row.budget).trim()}; uncompressed ${kib(rawBytes).trim()})`);
    }
    log(`largest lazy screen: ${worst.name} ${kib(worst.bytes).trim()}`);
    // Anything of size that came without a content coding is a serving fault the budget may hide.
    const plain = [...got].filter(([, g]) => g.encoding === 'identity' && g.raw >= 1024).map(([f]) => f);
    const encodings = {};
    for (const g of got.values()) encodings[g.encoding] = (encodings[g.encoding] ?? 0) + 1;
    log(
      `content codings: ${Object.entries(encodings)
        .map(([e, n]) => `${e} ×${n}`)
        .join(
          ', ',
        )}${plain.length ? `; FAIL: ${plain.length} files of 1 KiB or more sent uncompressed (${plain.slice(0, 3).join(', ')}${plain.length > 3 ? ', …' : ''})` : ''}`,
    );
    if (plain.length) ok = false;
    return { ok, signIn: rows[0].bytes, shell: rows[1].bytes, largestScreen: worst };
  } finally {
    agent.destroy();
    server.stop();
  }
}

/** A first load's files plus the stylesheets its chunks bring. */
function withCss(manifest, files) {
  const out = new Set(files);
  const byFile = new Map(Object.values(manifest).map((c) => [c.file, c]));
  for (const f of files) for (const css of byFile.get(f)?.css ?? []) out.add(css);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--url');
  const url = at >= 0 ? args[at + 1] : undefined;
  const dir = args.filter((a, i) => !a.startsWith('--') && !(at >= 0 && i === at + 1))[0];
  try {
    const { ok } = await benchBundle({ ...(dir ? { distDir: resolve(dir) } : {}), url });
    process.exitCode = ok ? 0 : 1;
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 2;
  }
}
