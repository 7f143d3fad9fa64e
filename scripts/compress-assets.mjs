#!/usr/bin/env node
/**
 * Pre-compresses the built console (after `vite build`): next to every text asset of
 * apps/web/dist above MIN_BYTES it writes `<file>.br` (brotli, quality 11) and `<file>.gz`
 * (gzip, level 9). The server sends them by Accept-Encoding (apps/server/src/platform/spa.ts,
 * @fastify/static `preCompressed`), with `Vary: Accept-Encoding`; a client that accepts
 * neither gets the plain file. A variant that would not be smaller is not written.
 *
 * index.html is left alone: the server fills in a per-response CSP nonce, so it is never sent
 * as stored (it is under 1 KiB anyway). Source maps and the Vite manifest are not served.
 * Writes apps/web/dist/.vite/compressed.json last: `npm start` takes it as the mark of a
 * complete console build.
 *
 * Usage: node scripts/compress-assets.mjs [distDir] [--quiet]   — or import { compressAssets }.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST = path.join(root, 'apps/web/dist');
/** Written last by compressAssets(): a console build that got this far is complete. */
export const STAMP = '.vite/compressed.json';
export const MIN_BYTES = 1024;
const TEXT = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|ico|wasm)$/i;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Files below `dir` (relative paths), skipping dot-directories (.vite) and dot-files. */
function walk(dir, base = dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full, base));
    else if (entry.isFile()) out.push(path.relative(base, full));
  }
  return out;
}

export async function compressAssets({ distDir = WEB_DIST, quiet = false } = {}) {
  if (!fs.existsSync(path.join(distDir, 'index.html'))) throw new Error(`${distDir} has no index.html: run vite build first`);
  fs.rmSync(path.join(distDir, STAMP), { force: true });
  const files = walk(distDir);
  // Variants left from an earlier run (same output directory without emptyOutDir).
  for (const f of files) if (/\.(br|gz)$/.test(f)) fs.rmSync(path.join(distDir, f));
  const todo = files.filter((f) => TEXT.test(f) && f !== 'index.html');
  const summary = { files: 0, bytes: 0, br: 0, gzip: 0 };
  const entries = {};
  // The pool runs these in parallel (UV_THREADPOOL_SIZE, 4 by default).
  await Promise.all(
    todo.map(async (rel) => {
      const file = path.join(distDir, rel);
      const data = fs.readFileSync(file);
      if (data.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      const entry = { bytes: data.length };
      // Keep the file times of the original: caches validate on them (ETag, Last-Modified).
      const { atime, mtime } = fs.statSync(file);
      for (const [ext, buf, key] of [
        ['.br', br, 'br'],
        ['.gz', gz, 'gzip'],
      ]) {
        if (buf.length >= data.length) continue;
        fs.writeFileSync(file + ext, buf);
        fs.utimesSync(file + ext, atime, mtime);
        entry[key] = buf.length;
      }
      entries[rel.split(path.sep).join('/')] = entry;
      summary.files += 1;
      summary.bytes += data.length;
      summary.br += entry.br ?? data.length;
      summary.gzip += entry.gzip ?? data.length;
    }),
  );
  const sorted = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => a.localeCompare(b)));
  fs.mkdirSync(path.dirname(path.join(distDir, STAMP)), { recursive: true });
  fs.writeFileSync(path.join(distDir, STAMP), JSON.stringify({ minBytes: MIN_BYTES, ...summary, assets: sorted }, null, 1) + '\n');
  if (!quiet) {
    const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
    process.stdout.write(`console: pre-compressed ${summary.files} assets, ${kib(summary.bytes)} → brotli ${kib(summary.br)}, gzip ${kib(summary.gzip)}\n`);
  }
  return summary;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv.slice(2).find((a) => !a.startsWith('--'));
  compressAssets({ distDir: dir ? path.resolve(dir) : WEB_DIST, quiet: process.argv.includes('--quiet') }).catch((err) => {
    process.stderr.write(`${err?.message ?? err}\n`);
    process.exit(1);
  });
}
