#!/usr/bin/env node
/**
 * `npm run bench`: prints figures and checks the budgets named in the issues. Never part of
 * `npm test` (no timed assertions in tests). Needs the console built (npm run build) for the
 * bundle figures; starts its own server on a temporary SQLite data dir for the rest.
 *
 * - first-load JavaScript (gzip) of the sign-in page and of the signed-in shell, lazy chunks
 * - password sign-ins per second ÷ bare argon2id verifications per second at the same
 *   concurrency (target ≥ 0.85: the service adds little over the hash)
 * - p99 of an authenticated call, quiet and during a sign-in storm (target ≤ 3 × quiet)
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 4);
const SECONDS = Number(process.env.BENCH_SECONDS || 5);
// Hashing runs on libuv's pool; size it to the cores so the event loop stays free.
const THREADS = String(Math.max(4, os.availableParallelism()));
const results = [];
const verdict = (name, value, ok, note) => results.push({ name, value, ok, note });

if (fs.existsSync(path.join(root, 'scripts/bench-bundle.mjs'))) {
  const r = spawnSync('node', ['scripts/bench-bundle.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) verdict('bundle budgets', 'see above', false, 'scripts/bench-bundle.mjs failed');
}

const freePort = () => new Promise((resolve) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); }); });

async function startServer() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-'));
  const child = spawn('node', ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: 'bench-password-1', MASTER_CAPTCHA_POLICY: 'after_failures', LOG_LEVEL: 'warn', UV_THREADPOOL_SIZE: THREADS },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(`${base}/readyz`)).ok) return { base, child, dataDir }; } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('server did not become ready');
}

/** Runs `fn` in `concurrency` loops for `seconds`; returns ops/s and latencies (ms). */
async function load(fn, concurrency, seconds) {
  const end = Date.now() + seconds * 1000;
  const lat = [];
  let errors = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < end) {
      const t0 = performance.now();
      try { await fn(); } catch { errors++; }
      lat.push(performance.now() - t0);
    }
  }));
  lat.sort((a, b) => a - b);
  return { perSec: lat.length / seconds, p99: lat[Math.floor(lat.length * 0.99)] ?? NaN, n: lat.length, errors };
}

const { base, child, dataDir } = await startServer();
try {
  const login = async () => {
    const r = await fetch(`${base}/api/users/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bench-password-1' }) });
    if (!r.ok) throw new Error(String(r.status));
    return (await r.json()).data.token;
  };
  const token = await login();
  const info = async () => {
    const r = await fetch(`${base}/api/perm/user/info`, { headers: { authorization: `Bearer ${token}` } });
    if (!r.ok) throw new Error(String(r.status));
    await r.arrayBuffer();
  };

  // Bare argon2id verifications on the same libuv pool size, in a separate process.
  const bare = spawnSync('node', ['-e', `
    const { hash, verify } = require('@node-rs/argon2');
    (async () => {
      const h = await hash('bench-password-1', { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
      const end = Date.now() + ${SECONDS * 1000}; let n = 0;
      await Promise.all(Array.from({ length: ${CONCURRENCY} }, async () => { while (Date.now() < end) { await verify(h, 'bench-password-1'); n++; } }));
      console.log(n / ${SECONDS});
    })();`], { cwd: path.join(root, 'apps/server'), env: { ...process.env, UV_THREADPOOL_SIZE: THREADS }, encoding: 'utf8' });
  const bareRate = Number(bare.stdout.trim());

  const signIns = await load(login, CONCURRENCY, SECONDS);
  const ratio = signIns.perSec / bareRate;
  console.log(`\nargon2id verifications/s (bare, concurrency ${CONCURRENCY}): ${bareRate.toFixed(1)}`);
  console.log(`password sign-ins/s (HTTP, concurrency ${CONCURRENCY}):   ${signIns.perSec.toFixed(1)}  (errors ${signIns.errors})`);
  verdict('sign-ins ÷ bare hashes', ratio.toFixed(2), ratio >= 0.85 && signIns.errors === 0, 'target ≥ 0.85');

  const quiet = await load(info, 2, SECONDS);
  const stormInfo = load(info, 2, SECONDS);
  const storm = load(login, CONCURRENCY, SECONDS);
  const [during] = await Promise.all([stormInfo, storm]);
  console.log(`authenticated call p99 quiet: ${quiet.p99.toFixed(2)} ms (${quiet.perSec.toFixed(0)}/s); during sign-in storm: ${during.p99.toFixed(2)} ms`);
  verdict('authenticated-call p99 under storm ÷ quiet', (during.p99 / quiet.p99).toFixed(2), during.p99 <= 3 * quiet.p99, 'target ≤ 3 (the OAuth token endpoint joins when it lands)');
} finally {
  child.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log('\nbudget checks:');
for (const r of results) console.log(`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.name}: ${r.value}  (${r.note})`);
