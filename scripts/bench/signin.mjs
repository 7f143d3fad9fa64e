/**
 * Sign-in costs (issues 7–8), moved here from scripts/bench.mjs unchanged in what they measure:
 *
 * - password sign-ins per second ÷ bare argon2id verifications per second at the same
 *   concurrency (target ≥ 0.85: the service adds little over the hash)
 * - p99 of an authenticated call, quiet and during a sign-in storm (target ≤ 3 × quiet)
 * - code-verification requests per second (SMS sign-in answers), codes in the database and,
 *   when Redis answers at REDIS_URL (default redis://127.0.0.1:6379), in Redis
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_PASSWORD, call, compiledServer, load, rawConnection, rawRequest, root, startServer, verdict } from './lib.mjs';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 4);
const SECONDS = Number(process.env.BENCH_SECONDS || 5);
// Hashing runs on libuv's pool; size it to the cores so the event loop stays free.
const THREADS = String(process.env.UV_THREADPOOL_SIZE || os.availableParallelism());

/**
 * `n` accounts with the admin's password: `admin` and copies of its row (bench only), written
 * while the server is stopped: a running server holds its SQLite file for itself.
 */
function benchAccounts(dir, n) {
  const Database = createRequire(path.join(root, 'apps/server/package.json'))('better-sqlite3');
  const db = new Database(path.join(dir, 'umbo.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const cols = db
      .prepare('select name from pragma_table_info(?)')
      .all('accounts')
      .map((c) => c.name);
    const names = ['admin'];
    for (let i = 1; i < n; i++) {
      const name = `bench${i}`;
      const pick = cols.map((c) => (c === 'id' ? `'bench-account-${i}'` : c === 'username' || c === 'username_norm' ? `'${name}'` : c));
      db.prepare(`insert into accounts (${cols.join(', ')}) select ${pick.join(', ')} from accounts where username_norm = 'admin'`).run();
      names.push(name);
    }
    return names;
  } finally {
    db.close();
  }
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function benchSignIns({ entry } = {}) {
  entry = await compiledServer(entry);
  // the first start makes the database and the administrator; the accounts are added between starts
  const made = await startServer({ entry, env: { UV_THREADPOOL_SIZE: THREADS } });
  await made.stop({ keepData: true });
  const users = benchAccounts(made.dataDir, CONCURRENCY);
  const server = await startServer({ entry, dataDir: made.dataDir, env: { UV_THREADPOOL_SIZE: THREADS } });
  const { base } = server;
  try {
    const r = await call(base, 'POST', '/api/users/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    if (r.status !== 200) throw new Error(`sign-in failed: ${r.status}`);
    const infoReq = rawRequest(base, 'GET', '/api/perm/user/info', { headers: { authorization: `Bearer ${r.json.data.token}` } });
    const infoConns = [rawConnection(base), rawConnection(base)];
    const info = async (loop) => {
      const { status } = await infoConns[loop].send(infoReq);
      if (status !== 200) throw new Error(String(status));
    };

    // Bare argon2id verifications on the same libuv pool size, in a separate process, in turns
    // with the sign-ins (bare, sign-ins, bare, …, bare): this machine's speed drifts by 10 % and
    // more within a minute, and turns put both figures under the same drift.
    const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
    const turn = Math.max(2, Math.round((SECONDS * 2) / ROUNDS));
    const bareOnce = () =>
      Number(
        spawnSync(
          'node',
          [
            '-e',
            `
    const { hash, verify } = require('@node-rs/argon2');
    (async () => {
      const h = await hash('${ADMIN_PASSWORD}', { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
      const end = Date.now() + ${turn * 1000}; let n = 0;
      await Promise.all(Array.from({ length: ${CONCURRENCY} }, async () => { while (Date.now() < end) { await verify(h, '${ADMIN_PASSWORD}'); n++; } }));
      console.log(n / ${turn});
    })();`,
          ],
          { cwd: path.join(root, 'apps/server'), env: { ...process.env, UV_THREADPOOL_SIZE: THREADS }, encoding: 'utf8' },
        ).stdout.trim(),
      );

    // One account per loop: every guess of an account is reserved before it is checked (issue 8),
    // so one account signing in on several connections at once meets its own lock, as an
    // attacker's parallel guesses do. Each loop signs in one account, one sign-in at a time,
    // …and from an address of its own (127.0.0.0/8 is all loopback), as separate people are.
    const conns = users.map((_, i) => rawConnection(base, { localAddress: `127.0.0.${i + 2}` }));
    const loginReqs = users.map((username) => rawRequest(base, 'POST', '/api/users/auth/login', { body: { username, password: ADMIN_PASSWORD } }));
    const rawLogin = async (loop) => {
      const { status } = await conns[loop].send(loginReqs[loop]);
      if (status !== 200) throw new Error(String(status));
    };
    const bare = [bareOnce()];
    const signInTurns = [];
    for (let t = 0; t < ROUNDS; t++) {
      signInTurns.push(await load(rawLogin, { concurrency: CONCURRENCY, seconds: turn }));
      bare.push(bareOnce());
    }
    // each sign-in turn against the mean of the bare turns on either side of it
    const bareRate = mean(signInTurns.map((_, t) => (bare[t] + bare[t + 1]) / 2));
    const signIns = { perSec: mean(signInTurns.map((t) => t.perSec)), errors: signInTurns.reduce((a, t) => a + t.errors, 0) };
    const ratio = signIns.perSec / bareRate;
    console.log(`\nargon2id verifications/s (bare, concurrency ${CONCURRENCY}): ${bareRate.toFixed(1)} (turns ${bare.map((b) => b.toFixed(0)).join(', ')})`);
    console.log(
      `password sign-ins/s (HTTP, concurrency ${CONCURRENCY}):   ${signIns.perSec.toFixed(1)}  (turns ${signInTurns.map((t) => t.perSec.toFixed(0)).join(', ')}; errors ${signIns.errors})`,
    );
    verdict('sign-ins ÷ bare hashes', ratio.toFixed(2), ratio >= 0.85 && signIns.errors === 0, 'target ≥ 0.85');

    const quiet = await load(info, { concurrency: 2, seconds: SECONDS });
    const [during] = await Promise.all([load(info, { concurrency: 2, seconds: SECONDS }), load(rawLogin, { concurrency: CONCURRENCY, seconds: SECONDS })]);
    console.log(`authenticated call p99 quiet: ${quiet.p99.toFixed(2)} ms (${quiet.perSec.toFixed(0)}/s); during sign-in storm: ${during.p99.toFixed(2)} ms`);
    verdict(
      'authenticated-call p99 under storm ÷ quiet',
      (during.p99 / quiet.p99).toFixed(2),
      during.p99 <= 3 * quiet.p99,
      'target ≤ 3 (the OAuth token endpoint joins when it lands)',
    );
    for (const c of [...conns, ...infoConns]) c.close();
  } finally {
    await server.stop();
    fs.rmSync(made.dataDir, { recursive: true, force: true });
  }
}

/**
 * Code verification: the path every SMS/email sign-in answer takes (store lookup, attempt
 * counting, consumption). Answers for numbers nobody asked a code for take the same path as
 * wrong answers (DESIGN.md §5), so they load the store without tripping the daily send caps.
 */
async function codeVerifications(label, env, entry) {
  const srv = await startServer({ entry, env: { UV_THREADPOOL_SIZE: THREADS, ...env } });
  const conns = Array.from({ length: 8 }, () => rawConnection(srv.base));
  try {
    let i = 0;
    const verifyOnce = async (loop) => {
      i += 1;
      const mobile = `139${String(i % 100_000_000).padStart(8, '0')}`;
      const req = rawRequest(srv.base, 'POST', '/api/users/auth/login/sms', { body: { mobile, code: '123456', serialNo: 'bench-serial' } });
      const { body } = await conns[loop].send(req, true);
      const code = JSON.parse(body).code;
      if (code !== 4006) throw new Error(`unexpected ${code}`);
    };
    const res = await load(verifyOnce, { concurrency: 8, seconds: SECONDS });
    console.log(`code verifications/s (${label}, concurrency 8): ${res.perSec.toFixed(0)}  p99 ${res.p99.toFixed(2)} ms  (errors ${res.errors})`);
    verdict(`code verifications/s (${label})`, res.perSec.toFixed(0), res.errors === 0, 'figure; errors must be 0');
  } finally {
    for (const c of conns) c.close();
    await srv.stop();
  }
}

export async function benchCodes({ entry } = {}) {
  entry = await compiledServer(entry);
  await codeVerifications('codes in SQLite', {}, entry);
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const redisUp = await new Promise((resolve) => {
    const u = new URL(redisUrl);
    const sock = net.connect(Number(u.port || 6379), u.hostname, () => {
      sock.destroy();
      resolve(true);
    });
    sock.on('error', () => resolve(false));
  });
  const benchRedis = new URL(redisUrl);
  benchRedis.searchParams.set('keyPrefix', 'umbo-bench:');
  if (redisUp) await codeVerifications('codes in Redis', { REDIS_URL: benchRedis.toString() }, entry);
  else console.log(`code verifications in Redis: skipped, nothing answers at ${redisUrl}`);
}

/** timing comparisons, in-process (scripts/bench-timing.ts). */
export function benchTiming() {
  const r = spawnSync('node', ['--import', 'tsx', '../../scripts/bench-timing.ts'], {
    cwd: path.join(root, 'apps/server'),
    encoding: 'utf8',
    env: { ...process.env, UV_THREADPOOL_SIZE: THREADS },
  });
  const lines = (r.stdout || '').trim().split('\n');
  const last = lines.pop() ?? '';
  console.log(lines.join('\n'));
  try {
    for (const v of JSON.parse(last).verdicts) verdict(v.name, v.value, v.ok, v.note);
  } catch {
    process.stderr.write(r.stderr || '');
    verdict('A-30/A-35 timing', 'no result', false, 'scripts/bench-timing.ts failed');
  }
}
