/**
 * Issue 14 bench: password sign-ins through an IT-interface backend that answers in 20 ms, at
 * 50 concurrent sign-ins. The reference backend (examples/it-backend) runs with --delay-ms 20;
 * a realm of type ecogloble points at it. Two loads, in turns:
 * - direct: the backend's login endpoint, signed and sent by umbo's own client code
 *   (federation/it/client.ts, keep-alive pool included), from this process: the backend's time
 * - umbo:   POST /api/users/auth/login of that realm: everything umbo adds on top
 * Figures: sign-ins/s, p50/p99 of both, added latency p50 (umbo − direct; target ≤ 2 ms) and
 * umbo's event-loop delay (perf_hooks.monitorEventLoopDelay, inside umbo's process).
 *
 * Nothing is loosened for the bench: each of the 50 loops signs in an account of its own from a
 * loopback address of its own (127.0.0.2 …), as separate people do, so the per-account and
 * per-address throttles see ordinary traffic; the realm's captcha policy is after_failures (a
 * realm setting) and no sign-in fails. The backend hashes with scrypt at a low cost (its
 * --hash-cost 10) so that its time is the 20 ms delay, not a CPU queue on this shared machine.
 * Umbo runs with NOTIFY_ALLOW_PRIVATE_NETWORK=true, as an operator with an on-premises backend
 * does (A-37: the backend is on loopback).
 *
 * Umbo runs compiled (as `npm start` runs it) on core 1; the backend and this load client share
 * core 0, in both turns. Unpinned, umbo's CPU was taken from the backend's, and the added latency
 * measured the machine's queue rather than umbo. Umbo's CPU time per sign-in is printed too: it
 * is what decides the added latency once umbo has a core of its own (at 50 concurrent sign-ins
 * with 20 ms answers, ≤ 2 ms p50 needs well under 0.5 ms a sign-in).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../build-server.mjs';
import {
  adminToken,
  call,
  cores,
  cpuSeconds,
  fmt,
  freePort,
  load,
  onInterrupt,
  pinSelf,
  rawConnection,
  rawRequest,
  root,
  sleep,
  spawnNode,
  startServer,
  verdict,
} from './lib.mjs';

const COMPILED = path.join(root, 'node_modules/.cache/umbo-bench/main.js');

const CONCURRENCY = Number(process.env.BENCH_IT_CONCURRENCY || 50);
const DELAY_MS = 20;
const APP_KEY = 'bench-it-key';
const APP_SECRET = 'bench-it-Secret-1';
const PREFIX = '/it';
const PASSWORD = 'Bench-Backend-1';

/**
 * Umbo's event-loop delay, measured in its own process: reset on SIGUSR2, written to a file on
 * the next. The histogram holds time between samples, so an idle loop reads the 10 ms
 * resolution: it is taken off, what remains is how late the loop was.
 */
const LOOP_PROBE = `
import { monitorEventLoopDelay } from 'node:perf_hooks';
import fs from 'node:fs';
const h = monitorEventLoopDelay({ resolution: 10 });
h.enable();
let armed = false;
const late = (ns) => Math.max(0, ns / 1e6 - 10);
process.on('SIGUSR2', () => {
  if (armed) fs.writeFileSync(process.env.BENCH_LOOP_FILE, JSON.stringify({ p50: late(h.percentile(50)), p99: late(h.percentile(99)), max: late(h.max) }));
  armed = !armed;
  h.reset();
});`;

export async function startBackend(dir, users, cpu) {
  const port = await freePort();
  const seeds = users.flatMap((u) => ['--seed', `${u}:${PASSWORD}`]);
  const child = spawnNode(
    [
      'examples/it-backend/server.mjs',
      ...['--port', String(port), '--db', path.join(dir, 'it.sqlite'), '--app-key', APP_KEY, '--app-secret', APP_SECRET, '--prefix', PREFIX],
      ...['--delay-ms', String(DELAY_MS), '--hash-cost', '10', ...seeds],
    ],
    { cpu, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`it-backend exited (${code})`)));
  });
  return { port, child };
}

/** The realm, through the API as an operator would set it up. */
export async function createItRealm(base, token, port) {
  const realmId = `bench${Math.random().toString(36).slice(2, 8)}`;
  const backend = {
    type: 'ecogloble',
    hasHttps: false,
    useOriginID: true,
    defaultRegion: '86',
    doAuthNeedCountryCode: false,
    loginpathCountryCodeRewrite: false,
    loginpathNeedCountryCode: false,
    loginpathUseFormPost: false,
    regions: [{ region: '86', host: '127.0.0.1' }],
    port,
    path: PREFIX,
    appKey: APP_KEY,
    appSercet: APP_SECRET,
    getUsersInfo: '/user',
    loginpath: '/login',
    getVerifyCode: '/verify-code',
    loginByVerifyCode: '/login-by-code',
    userRegistInfo: '/register',
  };
  const settings = {
    backend_type: 'ecogloble',
    backend,
    backend_realm_id: 'bench-tenant',
    backend_regist_url: 'https://it.example.com/register',
    captchaPolicy: 'after_failures',
    needActive: false,
  };
  const r = await call(base, 'POST', '/api/users/realms', { token, body: { realmId, domain: `${realmId}.example.com`, description: 'IT bench', settings } });
  if (r.status !== 200) throw new Error(`create realm: ${r.status} ${r.text.slice(0, 300)}`);
  return { realmId, backend };
}

/** umbo's client code, loaded under tsx in this process (the backend's own time, signed the same way). */
async function directClient(backend) {
  const { register } = await import('tsx/esm/api');
  register();
  const client = await import(path.join(root, 'apps/server/src/federation/it/client.ts'));
  const deps = { clock: { now: () => Date.now() }, allowPrivate: true };
  return (username) =>
    client.callIt(deps, {
      backend,
      secret: APP_SECRET,
      host: '127.0.0.1',
      endpoint: backend.loginpath,
      fields: { realm: 'bench-tenant', account: username, password: PASSWORD },
    });
}

async function loopDelay(pid, file, run) {
  fs.rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const result = await run();
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 50 && !fs.existsSync(file); i++) await sleep(100);
  return { result, loop: fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined };
}

export async function benchFederation({ seconds = 10, rounds = 2 } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-it-'));
  const forget = onInterrupt(() => fs.rmSync(dir, { recursive: true, force: true }));
  const loopFile = path.join(dir, 'loop.json');
  const users = Array.from({ length: CONCURRENCY }, (_, i) => `itbench${i}`);
  const pinned = cores > 1;
  if (pinned) pinSelf('0');
  // BENCH_IT_ENTRY=<built main.js>: run that build instead of building the tree (to compare two builds)
  const entry = process.env.BENCH_IT_ENTRY ? path.resolve(process.env.BENCH_IT_ENTRY) : COMPILED;
  if (!process.env.BENCH_IT_ENTRY) await buildServer({ quiet: true, outfile: COMPILED });
  const backendProc = await startBackend(dir, users, pinned ? 0 : undefined);
  const server = await startServer({
    entry,
    cpu: pinned ? 1 : undefined,
    nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(LOOP_PROBE)}`],
    env: { NOTIFY_ALLOW_PRIVATE_NETWORK: 'true', BENCH_LOOP_FILE: loopFile },
  });
  const conns = [];
  try {
    const { realmId, backend } = await createItRealm(server.base, await adminToken(server.base), backendProc.port);
    const direct = await directClient(backend);
    for (let i = 0; i < CONCURRENCY; i++) conns.push(rawConnection(server.base, { localAddress: `127.0.0.${i + 2}` }));
    const reqs = users.map((username) =>
      rawRequest(server.base, 'POST', '/api/users/auth/login', { body: { username, password: PASSWORD, realm_id: realmId } }),
    );
    const viaUmbo = async (loop) => {
      const { status, body } = await conns[loop].send(reqs[loop], true);
      if (status !== 200) throw new Error(`${status} ${body.slice(0, 200)}`);
    };
    const viaClient = (loop) => direct(users[loop]);

    // first sign-ins create the shadow accounts; both paths warm up (JIT, pools)
    await load(viaUmbo, { concurrency: CONCURRENCY, seconds: 2 });
    await load(viaClient, { concurrency: CONCURRENCY, seconds: 1 });
    const turn = Math.max(2, Math.round(seconds / rounds));
    const d = [];
    const u = [];
    const loops = [];
    // in turns (direct, umbo, direct, umbo): this machine's speed drifts, turns share the drift
    for (let t = 0; t < rounds; t++) {
      d.push(await load(viaClient, { concurrency: CONCURRENCY, seconds: turn }));
      const cpu0 = cpuSeconds(server.child.pid);
      const { result, loop } = await loopDelay(server.child.pid, loopFile, () => load(viaUmbo, { concurrency: CONCURRENCY, seconds: turn }));
      const cpu1 = cpuSeconds(server.child.pid);
      if (cpu0 !== undefined && cpu1 !== undefined && result.n) result.cpuMs = ((cpu1 - cpu0) * 1000) / result.n;
      u.push(result);
      if (loop) loops.push(loop);
    }
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const sum = (list) => ({
      perSec: mean(list.map((x) => x.perSec)),
      p50: mean(list.map((x) => x.p50)),
      p99: mean(list.map((x) => x.p99)),
      errors: list.reduce((a, x) => a + x.errors, 0),
      firstError: list.find((x) => x.firstError)?.firstError,
    });
    const bd = sum(d);
    const bu = sum(u);
    const added = bu.p50 - bd.p50;
    const cpuPer = u.every((x) => x.cpuMs !== undefined) ? mean(u.map((x) => x.cpuMs)) : undefined;
    console.log(
      `\nIT-interface backend (${DELAY_MS} ms answer), concurrency ${CONCURRENCY}, ${rounds} turns of ${turn} s each${pinned ? '; umbo on core 1, backend and load on core 0' : ''}:`,
    );
    console.log(`  backend direct (umbo's client code): ${bd.perSec.toFixed(0)} sign-ins/s  p50 ${fmt(bd.p50)}  p99 ${fmt(bd.p99)}  (errors ${bd.errors})`);
    console.log(`  through umbo:                        ${bu.perSec.toFixed(0)} sign-ins/s  p50 ${fmt(bu.p50)}  p99 ${fmt(bu.p99)}  (errors ${bu.errors})`);
    if (bu.firstError || bd.firstError) console.log(`  first error: ${String(bu.firstError ?? bd.firstError).slice(0, 300)}`);
    console.log(`  added latency p50: ${fmt(added)}  (turns ${u.map((x, i) => fmt(x.p50 - d[i].p50)).join(', ')})`);
    const lp = loops.length ? { p50: mean(loops.map((l) => l.p50)), p99: mean(loops.map((l) => l.p99)), max: Math.max(...loops.map((l) => l.max)) } : undefined;
    if (lp)
      console.log(
        `  umbo event-loop delay during the umbo turns: p50 ${fmt(lp.p50)}  p99 ${fmt(lp.p99)}  max ${fmt(lp.max)} (beyond the 10 ms sampling interval)`,
      );
    // The budget is about a backend that answers in 20 ms. When the backend (with the load client
    // beside it) is itself the queue, both turns wait in that queue and their difference hides
    // umbo's cost: the budget is then not shown, whatever the difference says.
    const saturated = bd.p50 > DELAY_MS * 1.5;
    const offered = (CONCURRENCY * 1000) / DELAY_MS;
    verdict(
      'IT sign-in added latency p50',
      fmt(added),
      !saturated && added <= 2 && bu.errors === 0,
      saturated
        ? `NOT SHOWN: the backend is saturated on this machine (its p50 ${fmt(bd.p50)} for a ${DELAY_MS} ms answer); ` +
            `${CONCURRENCY} concurrent sign-ins at ${DELAY_MS} ms offer ${offered.toFixed(0)}/s, umbo's CPU per sign-in allows ${cpuPer ? (1000 / cpuPer).toFixed(0) : '?'}/s on one core`
        : `target ≤ 2 ms over the backend's own ${fmt(bd.p50)}; errors must be 0`,
    );
    verdict(`IT sign-ins/s through umbo (concurrency ${CONCURRENCY})`, bu.perSec.toFixed(0), null, `figure; backend direct ${bd.perSec.toFixed(0)}/s`);
    verdict('umbo CPU per IT sign-in', cpuPer === undefined ? 'n/a' : fmt(cpuPer), null, `figure; ${pinned ? 'umbo alone on core 1' : 'unpinned'}`);
    verdict('umbo event-loop delay p99 (IT sign-ins)', lp ? fmt(lp.p99) : 'n/a', null, "figure; how late umbo's loop ran beyond its 10 ms sampling interval");
  } finally {
    for (const c of conns) c.close();
    await server.stop();
    backendProc.child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
    forget();
  }
}
