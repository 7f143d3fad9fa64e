#!/usr/bin/env node
/**
 * `npm start`, what operators run: builds what is missing or stale (one line each, the
 * builders' output only when they fail), then runs the compiled server with plain node,
 * from the repository root (DATA_DIR's default ./data is <root>/data, as the README says).
 * Signals are passed on to the server, and its exit status is ours. `npm run dev` is the
 * development start (tsx watch on the sources).
 *
 * A part is stale when a file it is built from is newer than the mark of its last build
 * (scripts/build.mjs OUTPUTS): sources, the workspace package @umbo/contracts, build
 * configuration, and node_modules/.package-lock.json (every npm install rewrites it).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const CONTRACTS = ['packages/contracts/src', 'packages/contracts/package.json'];
const SHARED = ['tsconfig.base.json', 'node_modules/.package-lock.json', 'scripts/build.mjs'];

/** What each part is built from, relative to the repository root. */
export const INPUTS = {
  console: [
    'apps/web/src',
    'apps/web/public',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/package.json',
    'apps/web/tsconfig.json',
    'scripts/compress-assets.mjs',
    ...CONTRACTS,
    ...SHARED,
  ],
  server: ['apps/server/src', 'apps/server/package.json', 'apps/server/tsconfig.json', 'scripts/build-server.mjs', ...CONTRACTS, ...SHARED],
};

/**
 * V8 flags the server runs with. The young generation's semi-spaces grow to 16 MB each by
 * default (32 MB resident, never given back) on start-up's allocations alone; at 4 MB the
 * server's peak RSS under token load is ~14 MB lower at the same CPU per token (issue 12
 * memory budget, measured with scripts/bench/oauth.mjs). The benches start the compiled
 * server with them too (scripts/bench/lib.mjs), so they measure what operators run.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4'];

/**
 * Environment the server runs with; an operator's own values win. glibc's malloc raises its
 * mmap threshold each time a large block is freed, up to 32 MB, so that later blocks of that
 * size come from the heap, and what is freed there is kept: start-up alone left ~12 MB
 * resident for good (second start, no hash run: 111 → 99 MB), and each 19 MiB argon2id block
 * may stay in its pool thread's arena. A fixed threshold (glibc's own default, 128 KiB) maps
 * every large block and gives it back when freed; argon2id verifications per second were the
 * same within noise (issue 12 memory budget). Benches start the compiled server with it too.
 */
const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** The server's environment: ours under the operator's (`env`), which wins. The benches use it too (scripts/bench/lib.mjs). */
export function serverEnv(env) {
  return {
    // libuv reads this when its pool starts, before any module of the server runs; setting
    // it from inside an ES module (platform/threadpool.ts) comes too late for the pool.
    UV_THREADPOOL_SIZE: String(Math.max(2, os.availableParallelism())),
    ...SERVER_ENV,
    ...env,
  };
}

/** Tests are not part of a build: saving one does not make the build stale. */
const isTest = (name) => /\.test\.[cm]?[jt]sx?$/.test(name);

/**
 * The newest modification time (ms) among `paths` (files, or directories walked, skipping
 * dot-entries and tests), with the file that has it; missing paths are skipped.
 */
export function newestInput(paths, base = root) {
  let newest = { mtimeMs: 0, file: undefined };
  const visit = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const e of fs.readdirSync(p)) if (!e.startsWith('.') && !isTest(e)) visit(path.join(p, e));
    } else if (st.mtimeMs > newest.mtimeMs) newest = { mtimeMs: st.mtimeMs, file: p };
  };
  for (const p of paths) visit(path.resolve(base, p));
  return newest;
}

/**
 * Why `output` must be (re)built from `inputs`, or undefined when it is current.
 * Pure apart from reading file times; `base` is where relative paths start.
 */
export function staleness(output, inputs, base = root) {
  let out;
  try {
    out = fs.statSync(path.resolve(base, output)).mtimeMs;
  } catch {
    return 'not built';
  }
  const newest = newestInput(inputs, base);
  return newest.mtimeMs > out ? `${path.relative(base, newest.file)} changed` : undefined;
}

/** Runs a build in a child process, its output kept back; resolves to { ok, output }. */
function runBuild(part) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts/build.mjs'), part, '--quiet'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (c) => output.push(c));
    child.stderr.on('data', (c) => output.push(c));
    child.on('close', (code) => resolve({ ok: code === 0, output: Buffer.concat(output) }));
  });
}

async function main() {
  // Import here, not at the top: a start with nothing to build does not load the builders.
  const { OUTPUTS } = await import('./build.mjs');
  for (const [part, label] of [
    ['console', 'the console'],
    ['server', 'the server'],
  ]) {
    const why = staleness(OUTPUTS[part], INPUTS[part]);
    if (!why) continue;
    const t0 = performance.now();
    process.stdout.write(`  building ${label} (${why})…`);
    const { ok, output } = await runBuild(part);
    if (!ok) {
      process.stdout.write(' failed:\n');
      process.stderr.write(output);
      process.stderr.write(`\nnpm start: building ${label} failed (above). \`npm run build\` shows the whole build.\n`);
      process.exit(1);
    }
    process.stdout.write(` ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }

  process.chdir(root);
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, OUTPUTS.server], {
    cwd: root,
    stdio: 'inherit',
    env: serverEnv(process.env),
    // Its own process group: a terminal's Ctrl-C reaches this process (and npm, which passes
    // it on to us again), and the server gets it once, from us, rather than two or three times.
    detached: true,
  });
  relaySignals(child);
  // npm runs us through `sh -c`, and dash does not pass signals on: `kill <npm>` (or an
  // npm that stops on SIGTERM) leaves us to init. Whoever started us is gone: stop the server.
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(orphaned);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }, 1000).unref();
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      // Leave the way the server left, so that whoever started us sees the same.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}

/**
 * Passes SIGINT, SIGTERM and SIGHUP on to the server. Copies of one signal that arrive
 * together (the terminal's and npm's) are passed on once; a second one a moment later (a
 * second Ctrl-C) is passed on too.
 */
export function relaySignals(child, { signals = ['SIGINT', 'SIGTERM', 'SIGHUP'], windowMs = 500, on = process.on.bind(process) } = {}) {
  const last = new Map();
  for (const signal of signals) {
    on(signal, () => {
      const now = Date.now();
      if (now - (last.get(signal) ?? -Infinity) < windowMs) return;
      last.set(signal, now);
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
