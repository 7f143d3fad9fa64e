/**
 * Issue 14 bench: password sign-ins through an IT-interface backend that answers in 20 ms, at
 * 50 concurrent sign-ins. The reference backend (examples/it-backend) runs with --delay-ms 20;
 * a realm of type ecogloble points at it. Two loads, in turns:
 * - direct: the backend's login endpoint, each request signed as the contract says (a fresh
 *   nonce and timestamp, HMAC over the canonical string) and sent on raw keep-alive sockets from
 *   this process: the backend's time
 * - umbo:   POST /api/users/auth/login of that realm, on raw keep-alive sockets: everything umbo
 *   adds on top
 * Both turns cost core 0 the same (a raw client and the backend's work); the direct turn ran
 * umbo's client code under tsx before, which cost core 0 more than the umbo turn's client did, so
 * the two turns did not wait in the same queue.
 * Figures: sign-ins/s, p50/p99 of both, added latency p50 (umbo − direct; target ≤ 2 ms) and
 * umbo's event-loop delay (perf_hooks.monitorEventLoopDelay, inside umbo's process).
 *
 * Nothing is loosened for the bench: each of the 50 loops signs in an account of its own from a
 * loopback address of its own (127.0.0.2 …), as separate people do, so the per-account and
 * per-address throttles see ordinary traffic; the realm's captcha policy is after_failures (a
 * realm setting) and no sign-in fails. The backend checks every signature, timestamp and nonce
 * (the contract); it hashes with scrypt at its lowest cost (--hash-cost 1) so that its time is
 * the 20 ms delay, not a CPU queue: at --hash-cost 10 each check took ~3 ms of core 0, and 50
 * concurrent sign-ins at 20 ms offer 2,500 a second.
 *
 * When core 0 cannot serve that offer at ~20 ms (the direct p50 over 1.5 × the delay), the
 * headline pair at 50 is not the budget; the pair is then measured again at the highest
 * concurrency whose direct p50 stays within 1.25 × the delay, and both are printed.
 * Umbo runs with NOTIFY_ALLOW_PRIVATE_NETWORK=true, as an operator with an on-premises backend
 * does (A-37: the backend is on loopback).
 *
 * Umbo runs compiled (as `npm start` runs it) on core 1; the backend and this load client share
 * core 0, in both turns. Unpinned, umbo's CPU was taken from the backend's, and the added latency
 * measured the machine's queue rather than umbo. Umbo's CPU time per sign-in is printed too: it
 * is what decides the added latency once umbo has a core of its own (at 50 concurrent sign-ins
 * with 20 ms answers, ≤ 2 ms p50 needs well under 0.5 ms a sign-in).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  compiledServer,
  adminToken,
  call,
  cores,
  cpuSeconds,
  fmt,
  freePort,
  load,
  onInterrupt,
  pinSelf,
  printVerdicts,
  rawConnection,
  rawRequest,
  root,
  sleep,
  spawnNode,
  startServer,
  verdict,
} from './lib.mjs';
import { canonicalString } from '../../examples/it-backend/signature.mjs';

const CONCURRENCY = Number(process.env.BENCH_IT_CONCURRENCY || 50);
const DELAY_MS = 20;
// scrypt N = 2^1, the lowest the reference backend takes: the backend's time is DELAY_MS
const HASH_COST = 1;
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
      ...['--delay-ms', String(DELAY_MS), '--hash-cost', String(HASH_COST), ...seeds],
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

/**
 * The backend's login endpoint from raw keep-alive sockets (lib.mjs): each request signed as
 * docs/it-interface.md says, with a nonce of its own, so the backend does all it does for umbo's
 * requests. Sockets are opened for each turn (the backend closes idle ones after 5 s).
 */
function directClient(port, users) {
  const target = `http://127.0.0.1:${port}`;
  const pathname = `${PREFIX}/login`;
  const bodies = users.map((account) => JSON.stringify({ realm: 'bench-tenant', account, password: PASSWORD }));
  let conns = [];
  let random = Buffer.alloc(0);
  const nonce = () => {
    if (random.length < 16) random = crypto.randomBytes(4096);
    const n = random.subarray(0, 16).toString('hex');
    random = random.subarray(16);
    return n;
  };
  return {
    open: (n) => (conns = Array.from({ length: n }, () => rawConnection(target))),
    close: () => conns.splice(0).forEach((c) => c.close()),
    async send(loop) {
      const body = bodies[loop];
      const ts = String(Math.floor(Date.now() / 1000));
      const n = nonce();
      const sig = crypto
        .createHmac('sha256', APP_SECRET)
        .update(canonicalString('POST', pathname, ts, n, Buffer.from(body)))
        .digest('hex');
      const head =
        `POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json\r\n` +
        `X-IT-Key: ${APP_KEY}\r\nX-IT-Timestamp: ${ts}\r\nX-IT-Nonce: ${n}\r\nX-IT-Signature: ${sig}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
      const { status, body: answer } = await conns[loop].send(Buffer.from(head + body), true);
      if (status !== 200 || !answer.startsWith('{"code":0')) throw new Error(`${status} ${answer.slice(0, 200)}`);
    },
  };
}

async function loopDelay(pid, file, run) {
  fs.rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const result = await run();
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 50 && !fs.existsSync(file); i++) await sleep(100);
  return { result, loop: fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined };
}

export async function benchFederation({ seconds = 10, rounds = 2, entry } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-it-'));
  const forget = onInterrupt(() => fs.rmSync(dir, { recursive: true, force: true }));
  const loopFile = path.join(dir, 'loop.json');
  const users = Array.from({ length: CONCURRENCY }, (_, i) => `itbench${i}`);
  const pinned = cores > 1;
  if (pinned) pinSelf('0');
  // `entry`: a build made before (to compare two builds) instead of building the tree
  entry = await compiledServer(entry);
  const backendProc = await startBackend(dir, users, pinned ? 0 : undefined);
  const server = await startServer({
    entry,
    cpu: pinned ? 1 : undefined,
    nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(LOOP_PROBE)}`],
    env: { NOTIFY_ALLOW_PRIVATE_NETWORK: 'true', BENCH_LOOP_FILE: loopFile },
  });
  const conns = [];
  try {
    const { realmId } = await createItRealm(server.base, await adminToken(server.base), backendProc.port);
    const direct = directClient(backendProc.port, users);
    for (let i = 0; i < CONCURRENCY; i++) conns.push(rawConnection(server.base, { localAddress: `127.0.0.${i + 2}` }));
    const reqs = users.map((username) =>
      rawRequest(server.base, 'POST', '/api/users/auth/login', { body: { username, password: PASSWORD, realm_id: realmId } }),
    );
    const viaUmbo = async (loop) => {
      const { status, body } = await conns[loop].send(reqs[loop], true);
      if (status !== 200) throw new Error(`${status} ${body.slice(0, 200)}`);
    };
    const directTurn = async (concurrency, secs) => {
      direct.open(concurrency);
      try {
        return await load(direct.send, { concurrency, seconds: secs });
      } finally {
        direct.close();
      }
    };

    // first sign-ins create the shadow accounts; both paths warm up (JIT, pools)
    await load(viaUmbo, { concurrency: CONCURRENCY, seconds: 2 });
    await directTurn(CONCURRENCY, 1);
    const turn = Math.max(2, Math.round(seconds / rounds));
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const sum = (list) => ({
      perSec: mean(list.map((x) => x.perSec)),
      p50: mean(list.map((x) => x.p50)),
      p99: mean(list.map((x) => x.p99)),
      errors: list.reduce((a, x) => a + x.errors, 0),
      firstError: list.find((x) => x.firstError)?.firstError,
    });

    /** Direct and umbo in turns (direct, umbo, direct, umbo) at `concurrency`: this machine's speed drifts, turns share the drift. */
    async function pair(concurrency) {
      const d = [];
      const u = [];
      const loops = [];
      for (let t = 0; t < rounds; t++) {
        d.push(await directTurn(concurrency, turn));
        const cpu0 = cpuSeconds(server.child.pid);
        const { result, loop } = await loopDelay(server.child.pid, loopFile, () => load(viaUmbo, { concurrency, seconds: turn }));
        const cpu1 = cpuSeconds(server.child.pid);
        if (cpu0 !== undefined && cpu1 !== undefined && result.n) result.cpuMs = ((cpu1 - cpu0) * 1000) / result.n;
        u.push(result);
        if (loop) loops.push(loop);
      }
      const bd = sum(d);
      const bu = sum(u);
      const cpuPer = u.every((x) => x.cpuMs !== undefined) ? mean(u.map((x) => x.cpuMs)) : undefined;
      const lp = loops.length
        ? { p50: mean(loops.map((l) => l.p50)), p99: mean(loops.map((l) => l.p99)), max: Math.max(...loops.map((l) => l.max)) }
        : undefined;
      const r = { concurrency, bd, bu, added: bu.p50 - bd.p50, turns: u.map((x, i) => x.p50 - d[i].p50), cpuPer, lp };
      console.log(`\n  concurrency ${concurrency}:`);
      console.log(`    backend direct: ${bd.perSec.toFixed(0)} sign-ins/s  p50 ${fmt(bd.p50)}  p99 ${fmt(bd.p99)}  (errors ${bd.errors})`);
      console.log(`    through umbo:   ${bu.perSec.toFixed(0)} sign-ins/s  p50 ${fmt(bu.p50)}  p99 ${fmt(bu.p99)}  (errors ${bu.errors})`);
      if (bu.firstError || bd.firstError) console.log(`    first error: ${String(bu.firstError ?? bd.firstError).slice(0, 300)}`);
      console.log(
        `    added latency p50: ${fmt(r.added)}  (turns ${r.turns.map(fmt).join(', ')});  umbo CPU per sign-in ${cpuPer === undefined ? 'n/a' : fmt(cpuPer)}`,
      );
      if (lp) console.log(`    umbo event-loop delay: p50 ${fmt(lp.p50)}  p99 ${fmt(lp.p99)}  max ${fmt(lp.max)} (beyond the 10 ms sampling interval)`);
      return r;
    }

    console.log(
      `\nIT-interface backend (${DELAY_MS} ms answer, scrypt cost 2^${HASH_COST}), ${rounds} turns of ${turn} s each${pinned ? '; umbo on core 1, backend and load on core 0' : ''}:`,
    );
    const head = await pair(CONCURRENCY);
    // The budget is about a backend that answers in 20 ms. When the backend (with the load client
    // beside it) is itself the queue, both turns wait in that queue and their difference hides
    // umbo's cost: the budget is then not shown at this concurrency, whatever the difference says.
    const saturatedAt = (r) => r.bd.p50 > DELAY_MS * 1.5;
    const offered = (CONCURRENCY * 1000) / DELAY_MS;
    let sustained;
    if (saturatedAt(head)) {
      // the highest concurrency core 0 serves at ~20 ms: short direct probes, going down
      for (const c of [40, 30, 25, 20, 15, 10, 5].filter((x) => x < CONCURRENCY)) {
        const probe = await directTurn(c, 1.5);
        if (probe.p50 <= DELAY_MS * 1.25) {
          console.log(
            `\n  core 0 cannot offer ${offered.toFixed(0)} sign-ins/s at ${DELAY_MS} ms (direct p50 ${fmt(head.bd.p50)} at ${CONCURRENCY}); ` +
              `it sustains concurrency ${c} (direct probe p50 ${fmt(probe.p50)}, ${probe.perSec.toFixed(0)}/s):`,
          );
          sustained = await pair(c);
          break;
        }
      }
      if (!sustained) console.log(`\n  core 0 cannot answer in ~${DELAY_MS} ms even at concurrency 5: no pair shows the budget`);
    }
    const shown = [head, sustained].filter((r) => r && !saturatedAt(r));
    const best = shown[0];
    verdict(
      `IT sign-in added latency p50 (concurrency ${CONCURRENCY})`,
      fmt(head.added),
      saturatedAt(head) ? false : head.added <= 2 && head.bu.errors === 0,
      saturatedAt(head)
        ? `NOT SHOWN at ${CONCURRENCY}: core 0 (backend + load) is the queue (direct p50 ${fmt(head.bd.p50)} for a ${DELAY_MS} ms answer; ${CONCURRENCY} concurrent sign-ins offer ${offered.toFixed(0)}/s); ` +
            `umbo's CPU per sign-in allows ${head.cpuPer ? (1000 / head.cpuPer).toFixed(0) : '?'}/s on one core`
        : `target ≤ 2 ms over the backend's own ${fmt(head.bd.p50)}; errors must be 0`,
    );
    if (sustained)
      verdict(
        `IT sign-in added latency p50 (concurrency ${sustained.concurrency}, the most core 0 serves at ~${DELAY_MS} ms)`,
        fmt(sustained.added),
        saturatedAt(sustained) ? false : sustained.added <= 2 && sustained.bu.errors === 0,
        saturatedAt(sustained)
          ? `not shown: direct p50 ${fmt(sustained.bd.p50)}`
          : `target ≤ 2 ms over the backend's own ${fmt(sustained.bd.p50)}; errors must be 0`,
      );
    verdict(
      `IT sign-ins/s through umbo (concurrency ${CONCURRENCY})`,
      head.bu.perSec.toFixed(0),
      null,
      `figure; backend direct ${head.bd.perSec.toFixed(0)}/s`,
    );
    const cpuPer = best?.cpuPer ?? head.cpuPer;
    verdict(
      'umbo CPU per IT sign-in',
      cpuPer === undefined ? 'n/a' : fmt(cpuPer),
      null,
      `figure; ${pinned ? 'umbo alone on core 1' : 'unpinned'}; ≤ 2 ms added at ${CONCURRENCY} × ${DELAY_MS} ms needs well under 0.5 ms`,
    );
    const lp = (best ?? head).lp;
    verdict('umbo event-loop delay p99 (IT sign-ins)', lp ? fmt(lp.p99) : 'n/a', null, "figure; how late umbo's loop ran beyond its 10 ms sampling interval");
    return { cpuPer, added: head.added, perSec: head.bu.perSec };
  } finally {
    for (const c of conns) c.close();
    await server.stop();
    backendProc.child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
    forget();
  }
}

/**
 * node scripts/bench/federation.mjs [--seconds 10] [--rounds 2] [--entry old/main.js --entry new/main.js] [--reps 3]
 * With --entry (one or more compiled servers), runs the bench --reps times over the entries in
 * turn (A, B, A, B …): this machine's speed drifts, alternating shares the drift. Prints each
 * entry's median CPU per sign-in at the end.
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : dflt;
  };
  const entries = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--entry' ? [path.resolve(a)] : []));
  const opts = { seconds: arg('--seconds', 10), rounds: arg('--rounds', 2) };
  if (!entries.length) await benchFederation(opts);
  else {
    const runs = new Map(entries.map((e) => [e, []]));
    for (let rep = 0; rep < arg('--reps', 3); rep++)
      for (const entry of entries) {
        console.log(`\n== ${entry} (rep ${rep + 1})`);
        runs.get(entry).push(await benchFederation({ ...opts, entry }));
      }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
    console.log('\nCPU per sign-in by entry (median; each run):');
    for (const [entry, list] of runs) {
      const cpu = list.map((r) => r.cpuPer).filter((x) => x !== undefined);
      console.log(`  ${entry}: ${fmt(median(cpu))}  (${cpu.map(fmt).join(', ')});  added p50 median ${fmt(median(list.map((r) => r.added)))}`);
    }
  }
  printVerdicts();
}
