#!/usr/bin/env node
/**
 * `npm run build`: the console (vite build, then pre-compressed assets) and the server
 * (compiled to apps/server/dist/main.js). `npm start` runs the parts that are missing or stale
 * (scripts/start.mjs); this builds what it is asked to, always.
 *
 * Usage: node scripts/build.mjs [console] [server] [--quiet]   (no part named: both)
 * --quiet prints nothing unless something fails (Vite's errors still reach stderr).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compressAssets, STAMP, WEB_DIST } from './compress-assets.mjs';
import { buildServer, SERVER_OUT } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_DIR = path.join(root, 'apps/web');

/** What marks each part as built: written last, dated when its build started (see below). */
export const OUTPUTS = { console: path.join(WEB_DIST, STAMP), server: SERVER_OUT };

/**
 * The mark of a finished build gets the time the build started, not the time it ended: a
 * source saved while the build ran is then newer than the output, and the next start rebuilds.
 */
function dateOutput(file, startedAt) {
  fs.utimesSync(file, startedAt, startedAt);
}

export async function buildConsole({ quiet = false } = {}) {
  const startedAt = new Date();
  const { build } = await import('vite');
  await build({ root: WEB_DIR, configFile: path.join(WEB_DIR, 'vite.config.ts'), mode: 'production', logLevel: quiet ? 'error' : 'info' });
  await compressAssets({ distDir: WEB_DIST, quiet });
  dateOutput(OUTPUTS.console, startedAt);
}

export async function buildAll(parts = ['console', 'server'], { quiet = false } = {}) {
  for (const part of parts) {
    const startedAt = new Date();
    if (part === 'console') await buildConsole({ quiet });
    else if (part === 'server') {
      await buildServer({ quiet }).catch((err) => {
        if (Array.isArray(err?.errors)) err.printed = true; // esbuild's messages, printed by esbuild
        throw err;
      });
      dateOutput(OUTPUTS.server, startedAt);
    } else throw new Error(`unknown part "${part}" (console, server)`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const parts = args.filter((a) => !a.startsWith('--'));
  try {
    await buildAll(parts.length ? parts : undefined, { quiet: args.includes('--quiet') });
    // Vite and esbuild may keep workers alive; the build is done.
    process.exit(0);
  } catch (err) {
    // esbuild has printed its messages already; Vite, quiet, says only "Build failed".
    if (!err?.printed) process.stderr.write(`${err?.plugin || err?.id ? err.message : (err?.stack ?? err)}\n`);
    process.exit(1);
  }
}
