/**
 * Timing side channels (SECURITY.md ), measured here and not in `npm test`
 * because timed assertions do not belong in tests. An in-process server on a temporary
 * SQLite file; each request comes from its own address and each account is tried once, so
 * throttles and captchas stay out of the way and only the code paths are compared.
 *
 * - sign-in with an unknown name vs a known name with a wrong password
 * - a reset link asked for a known vs an unknown address
 * Median latencies over RUNS interleaved pairs must differ by less than 20 %.
 * Prints lines for people, then one JSON line of verdicts for scripts/bench.mjs.
 */
import '../apps/server/src/platform/threadpool.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/platform/config.js';
import { systemClock } from '../apps/server/src/platform/clock.js';
import { buildApp } from '../apps/server/src/app.js';
import { openProduct } from '../apps/server/src/open.js';
import { hashPassword } from '../apps/server/src/auth/passwords.js';

const RUNS = Number(process.env.BENCH_TIMING_RUNS || 200);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-timing-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'http://umbo.bench',
  ADMIN_PASSWORD: 'bench-password-1',
  MASTER_CAPTCHA_POLICY: 'after_failures',
});
const { dbh, ctx } = await openProduct(config, systemClock);
const app = await buildApp(ctx, { logger: false });
await app.ready();

let ipSeq = 0;
const nextIp = () => {
  ipSeq += 1;
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

async function timed(url: string, payload: object): Promise<number> {
  const t0 = performance.now();
  const res = await app.inject({ method: 'POST', url, payload, remoteAddress: nextIp() });
  const ms = performance.now() - t0;
  if (res.statusCode >= 500) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  // Deliveries run after the answer; let them finish so they do not land in the next timing.
  await ctx.services.notify.settled();
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

// RUNS accounts sharing one hash (same parameters, same verify cost), each tried once.
const passwordHash = await hashPassword('Right-password-1');
const now = Date.now();
const accounts: { username: string; email: string }[] = [];
for (let i = 0; i < RUNS; i++) {
  const username = `timing${i}`;
  const email = `timing${i}@example.test`;
  await ctx.repos.accounts.insertPerson({ realmId: 'master', username, email, passwordHash, now });
  accounts.push({ username, email });
}

// Warm up both paths (JIT, the dummy hash, prepared statements).
for (let i = 0; i < 5; i++) {
  await timed('/api/users/auth/login', { username: `warm-nobody-${i}`, password: 'Wrong-password-1' });
  await timed('/api/users/auth/retrieve/email', { email: `warm-nobody-${i}@example.test` });
}

const unknownUser: number[] = [];
const wrongPassword: number[] = [];
const knownMail: number[] = [];
const unknownMail: number[] = [];
for (let i = 0; i < RUNS; i++) {
  // Alternate which goes first so that drift over the run does not favour one side.
  const pair = [
    async () => unknownUser.push(await timed('/api/users/auth/login', { username: `nobody-${i}`, password: 'Wrong-password-1' })),
    async () => wrongPassword.push(await timed('/api/users/auth/login', { username: accounts[i]!.username, password: 'Wrong-password-1' })),
  ];
  for (const f of i % 2 ? pair.reverse() : pair) await f();
  const mails = [
    async () => knownMail.push(await timed('/api/users/auth/retrieve/email', { email: accounts[i]!.email })),
    async () => unknownMail.push(await timed('/api/users/auth/retrieve/email', { email: `nobody-${i}@example.test` })),
  ];
  for (const f of i % 2 ? mails.reverse() : mails) await f();
}

const verdicts: { name: string; value: string; ok: boolean; note: string }[] = [];
function compare(name: string, a: [string, number[]], b: [string, number[]]) {
  const ma = median(a[1]);
  const mb = median(b[1]);
  const diff = Math.abs(ma - mb) / Math.min(ma, mb);
  console.log(`${name}: median ${a[0]} ${ma.toFixed(2)} ms, ${b[0]} ${mb.toFixed(2)} ms over ${RUNS} runs each (differ ${(diff * 100).toFixed(1)} %)`);
  verdicts.push({ name: `${name} median difference`, value: `${(diff * 100).toFixed(1)} %`, ok: diff < 0.2, note: 'target < 20 %' });
}
compare('A-30 sign-in', ['unknown name', unknownUser], ['wrong password', wrongPassword]);
compare('A-35 reset mail', ['known address', knownMail], ['unknown address', unknownMail]);

await app.close();
await dbh.close();
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(JSON.stringify({ verdicts }));
process.exit(0);
