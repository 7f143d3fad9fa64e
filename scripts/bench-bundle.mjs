#!/usr/bin/env node
/**
 * Console bundle budgets (issue 2): first-load JavaScript, gzip, of
 *   - the sign-in page            ≤ 150 KiB
 *   - the signed-in shell         ≤ 450 KiB  (shell + personal center, as after sign-in)
 *   - every other screen          ≤ 100 KiB  (what it loads beyond the page it is reached from)
 * Builds nothing: reads apps/web/dist and its Vite manifest (`npm run build` first).
 * Usage: node scripts/bench-bundle.mjs [distDir]   — or import { benchBundle }.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

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
  'src/features/account/pages/center-page.tsx',
  // Fetched as soon as the shell is up (rich-providers preloads it).
  'src/lib/feedback-host.tsx',
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
  const name = key.split('/').pop().replace(/\.[^.]+$/, '');
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
      const name = key.split('/').pop().replace(/\.[^.]+$/, '');
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

export function benchBundle({ distDir = resolve(dirname(fileURLToPath(import.meta.url)), '../apps/web/dist'), log = console.log } = {}) {
  const manifestPath = join(distDir, '.vite/manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run build\` first`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const sizes = new Map();
  const gz = (file) => {
    if (!sizes.has(file)) sizes.set(file, gzipSync(readFileSync(join(distDir, file))).length);
    return sizes.get(file);
  };
  const total = (files, minus = new Set()) => [...files].filter((f) => f.endsWith('.js') && !minus.has(f)).reduce((n, f) => n + gz(f), 0);

  const signInFiles = closure(manifest, SIGN_IN);
  const shellFiles = closure(manifest, SHELL);
  const rows = [
    { name: 'sign-in page, first load', bytes: total(signInFiles), budget: BUDGETS.signIn },
    { name: 'signed-in shell, first load', bytes: total(shellFiles), budget: BUDGETS.shell },
  ];

  const counted = new Set([...SIGN_IN, ...SHELL].filter((k) => !k.startsWith('?')));
  const countedFiles = new Set([...counted].map((k) => entryOf(manifest, k).file));
  const screens = Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry && !countedFiles.has(manifest[k].file) && !isLocale(k));
  let worst = { name: '(none)', bytes: 0 };
  for (const key of screens) {
    let bytes = total(closure(manifest, [key]), shellFiles);
    if (PUBLIC_RICH.includes(key)) bytes = Math.max(bytes, total(closure(manifest, ['src/app/rich-providers.tsx', key]), signInFiles));
    if (bytes > worst.bytes) worst = { name: key, bytes };
    rows.push({ name: `  lazy ${key}`, bytes, budget: BUDGETS.screen, detail: true });
  }

  const kib = (n) => `${(n / KIB).toFixed(1).padStart(6)} KiB`;
  log('Console bundle (JavaScript, gzip)');
  let ok = true;
  for (const row of rows) {
    const pass = row.bytes <= row.budget;
    ok &&= pass;
    log(`${pass ? 'PASS' : 'FAIL'}  ${row.name.padEnd(58)} ${kib(row.bytes)}  (budget ${kib(row.budget).trim()})`);
  }
  log(`largest lazy screen: ${worst.name} ${kib(worst.bytes).trim()}`);
  return { ok, signIn: rows[0].bytes, shell: rows[1].bytes, largestScreen: worst };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { ok } = benchBundle(process.argv[2] ? { distDir: resolve(process.argv[2]) } : {});
    process.exitCode = ok ? 0 : 1;
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 2;
  }
}
