/**
 * Shared pieces of the issue-11 bench (scripts/bench/*.mjs): starting a real server on a given
 * database, a cheap keep-alive HTTP client and a fixed-concurrency load loop, percentiles,
 * and the verdict table every part prints into.
 *
 * The load generator shares this 2-core machine with the server, so it must cost little per
 * request: one raw keep-alive socket per connection, writing a prebuilt request and reading
 * only the status line, Content-Length and body. It costs a fraction of fetch (undici) or
 * node:http per request, so the figures measure the server, not the client.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../build-server.mjs';
import { SERVER_NODE_FLAGS, serverEnv } from '../start.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where the benches put the compiled server they run (scripts/build-server.mjs: plain node, as `npm start` runs it). */
export const COMPILED = path.join(root, 'node_modules/.cache/umbo-bench/main.js');

let built;
/**
 * The server as `npm start` runs it: compiled, plain node. `entry`: a build made before (to
 * compare two builds), used as it is. The tree's own is built once per bench run, whichever
 * parts ask for it.
 */
export async function compiledServer(entry) {
  if (entry) return entry;
  await (built ??= buildServer({ quiet: true, outfile: COMPILED }));
  return COMPILED;
}
export const ADMIN_PASSWORD = 'bench-password-1';
export const MASTER_KEY = 'be'.repeat(32);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

/** `taskset` pins a process to cores; absent on some systems, then nothing is pinned. */
export const hasTaskset = spawnSync('taskset', ['-V'], { encoding: 'utf8' }).status === 0;
export const cores = os.availableParallelism();

/** Pins this process (every thread) to `cpuList` ('0', '1', '0-1'). */
export function pinSelf(cpuList) {
  if (hasTaskset) spawnSync('taskset', ['-a', '-p', '-c', cpuList, String(process.pid)], { stdio: 'ignore' });
}

/**
 * What an interrupted bench must not leave behind: its server processes (killed when this
 * process exits, however it exits) and, on Ctrl-C or SIGTERM, what `onInterrupt` registered
 * (temporary directories, bench databases).
 */
const children = new Set();
const interruptCleanups = new Set();
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    for (const fn of interruptCleanups) await Promise.resolve(fn()).catch(() => {});
    process.exit(130);
  });
}
/** Registers `fn` to run if the bench is interrupted; answers a function that unregisters it. */
export function onInterrupt(fn) {
  interruptCleanups.add(fn);
  return () => interruptCleanups.delete(fn);
}

/** `node args…`, pinned to `cpu` when given and taskset exists. */
export function spawnNode(args, { cpu, env, cwd = root, stdio = ['ignore', 'ignore', 'inherit'] } = {}) {
  const cmd = cpu !== undefined && hasTaskset ? 'taskset' : 'node';
  const argv = cpu !== undefined && hasTaskset ? ['-c', String(cpu), 'node', ...args] : args;
  const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, stdio });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function waitReady(base, child, what = 'server') {
  let exited = null;
  child.once('exit', (code) => (exited = code ?? -1));
  for (let i = 0; i < 300; i++) {
    if (exited !== null) throw new Error(`${what} exited (${exited}) before it was ready`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {}
    await sleep(200);
  }
  child.kill();
  throw new Error(`${what} did not become ready`);
}

/**
 * The real server (main.ts under tsx, as the existing bench and `npm run dev` run it) on
 * `databaseUrl` (default: SQLite in a new temp DATA_DIR). `cpu`: the core it is pinned to;
 * `nodeArgs`: extra node flags (e.g. --cpu-prof to see where the time goes); `port`: a port
 * chosen before (when PUBLIC_URL must be known first); `entry`: a compiled main.js instead of tsx.
 */
export async function startServer({ databaseUrl, dataDir, cpu, env = {}, nodeArgs = [], port: fixedPort, entry } = {}) {
  const port = fixedPort ?? (await freePort());
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-'));
  const forget = dataDir ? () => {} : onInterrupt(() => fs.rmSync(dir, { recursive: true, force: true }));
  // `entry`: a compiled server (scripts/build-server.mjs) run with plain node, as `npm start` runs it
  // BENCH_CPU_PROF=dir: every server the bench starts writes a V8 CPU profile there when stopped
  // BENCH_NODE_ARGS="--flag …": node/V8 flags to try on every server it starts (most are not allowed in NODE_OPTIONS)
  const extra = [
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : []),
    ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
  ];
  // a compiled server gets the V8 flags `npm start` gives it (scripts/start.mjs)
  // and the environment, the runner's own values winning; BENCH_MALLOC_DEFAULT=1 leaves glibc's dynamic threshold
  const asStarted = entry ? serverEnv(process.env) : {};
  if (process.env.BENCH_MALLOC_DEFAULT) delete asStarted.MALLOC_MMAP_THRESHOLD_;
  const child = spawnNode([...extra, ...nodeArgs, ...(entry ? [...SERVER_NODE_FLAGS, entry] : ['--import', 'tsx', 'apps/server/src/main.ts'])], {
    cpu,
    env: {
      ...asStarted,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      MASTER_KEY,
      ADMIN_PASSWORD,
      MASTER_CAPTCHA_POLICY: 'after_failures',
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitReady(base, child);
  } catch (err) {
    if (!dataDir) fs.rmSync(dir, { recursive: true, force: true });
    forget();
    throw err;
  }
  return {
    base,
    child,
    dataDir: dir,
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([gone, sleep(5000)]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (!keepData && !dataDir) fs.rmSync(dir, { recursive: true, force: true });
      forget();
    },
  };
}

/**
 * One raw keep-alive connection. `send(request)` writes a prebuilt request (a Buffer from
 * `rawRequest`) and resolves with {status, body} once the whole answer is in.
 */
export function rawConnection(base, { localAddress } = {}) {
  const u = new URL(base);
  const sock = net.connect({ port: Number(u.port), host: u.hostname, ...(localAddress ? { localAddress } : {}) });
  sock.setNoDelay(true);
  let buf = Buffer.alloc(0);
  let waiting;
  let keepBody = false;
  const fail = (err) => {
    const w = waiting;
    waiting = undefined;
    w?.reject(err);
  };
  sock.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = buf.subarray(0, end).toString('latin1');
    const m = /content-length:\s*(\d+)/i.exec(head);
    if (!m) return fail(new Error(`answer without Content-Length: ${head.slice(0, 200)}`));
    const length = Number(m[1]);
    if (buf.length < end + 4 + length) return;
    const body = keepBody ? buf.subarray(end + 4, end + 4 + length).toString('utf8') : '';
    buf = buf.subarray(end + 4 + length);
    const w = waiting;
    waiting = undefined;
    w?.resolve({ status: Number(head.slice(9, 12)), body });
  });
  sock.on('error', fail);
  sock.on('close', () => fail(new Error('connection closed')));
  return {
    /** `withBody`: keep the body text (costs a little; status-only loads skip it) */
    send(request, withBody = false) {
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        keepBody = withBody;
        sock.write(request);
      });
    },
    close: () => sock.destroy(),
  };
}

/** A prebuilt HTTP/1.1 request. */
export function rawRequest(base, method, urlPath, { headers = {}, body } = {}) {
  const u = new URL(base);
  const payload = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const lines = [`${method} ${urlPath} HTTP/1.1`, `Host: ${u.host}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  if (body !== undefined) {
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) lines.push('Content-Type: application/json');
    lines.push(`Content-Length: ${Buffer.byteLength(payload)}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${payload}`);
}

/** A one-off JSON call (fetch: setup and checks, not load). */
export async function call(base, method, urlPath, { token, body, headers = {} } = {}) {
  const res = await fetch(new URL(urlPath, base), {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

export async function adminToken(base, username = 'admin', password = ADMIN_PASSWORD) {
  const r = await call(base, 'POST', '/api/users/auth/login', { body: { username, password } });
  if (r.status !== 200 || !r.json?.data?.token) throw new Error(`sign-in as ${username} failed: ${r.status} ${r.text.slice(0, 300)}`);
  return r.json.data.token;
}

export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

export function stats(latencies) {
  const s = Float64Array.from(latencies).sort();
  return { n: s.length, p50: percentile(s, 0.5), p99: percentile(s, 0.99), max: s[s.length - 1] ?? NaN };
}

/**
 * Runs `fn(loop, i)` in `concurrency` loops for `seconds` (after `warmup` seconds that are not
 * counted); answers requests per second, latency percentiles (ms) and the error count.
 * A request that fails (throws) counts as an error, not as a latency.
 */
export async function load(fn, { concurrency, seconds, warmup = 0 }) {
  if (warmup > 0) await load(fn, { concurrency, seconds: warmup });
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const lat = [];
  let errors = 0;
  let firstError;
  let i = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      while (performance.now() < end) {
        const s = performance.now();
        try {
          await fn(loop, i++);
          lat.push(performance.now() - s);
        } catch (err) {
          errors++;
          firstError ??= err;
        }
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  return { perSec: lat.length / elapsed, ...stats(lat), errors, firstError };
}

/**
 * Runs `fn` `n` times, one at a time; answers latency percentiles (ms). `maxSeconds` bounds the
 * time (after at least `minRuns`): a slow query must not make the whole bench run for hours.
 */
export async function sequential(fn, n, { maxSeconds = Infinity, minRuns = 20 } = {}) {
  const lat = [];
  const end = performance.now() + maxSeconds * 1000;
  for (let i = 0; i < n; i++) {
    if (i >= minRuns && performance.now() > end) break;
    const s = performance.now();
    await fn(i);
    lat.push(performance.now() - s);
  }
  return { ...stats(lat), cut: lat.length < n };
}

/** The verdicts every part adds to; bench.mjs prints them at the end. */
export const results = [];
export function verdict(name, value, ok, note) {
  results.push({ name, value, ok, note });
}
/**
 * Each core's steal time (Linux /proc/stat, seconds): time the hypervisor gave this VM's core to
 * another guest. On a shared host it came to 20–40 % of a core during some runs, and every
 * figure of such a run is slower than the same code on a quiet machine (and not comparable).
 */
export function stealSeconds() {
  try {
    const cores = {};
    for (const line of fs.readFileSync('/proc/stat', 'utf8').split('\n')) {
      const m = /^cpu(\d+)\s+(.*)$/.exec(line);
      // fields: user nice system idle iowait irq softirq steal …, in clock ticks (100 a second)
      if (m) cores[m[1]] = Number(m[2].split(/\s+/)[7] ?? 0) / 100;
    }
    return cores;
  } catch {
    return {};
  }
}
const stealAtStart = { at: Date.now(), cores: stealSeconds() };

/** The core whose steal time the benches show beside a server's figures (servers are pinned to core 1 when there are two). */
export const SERVER_CORE = cores > 1 ? '1' : '0';

/** The most of the server's core any of these turns (each with `steal`, a share) lost to other guests of the host. */
export const stealShown = (turns) => (turns.every((t) => Number.isFinite(t.steal)) ? `${(Math.max(...turns.map((t) => t.steal)) * 100).toFixed(0)} %` : 'n/a');

/** The share of each core stolen since this process began, as "core 0 3 %, core 1 12 %" ('' where unknown). */
export function stealSinceStart() {
  const now = stealSeconds();
  const wall = (Date.now() - stealAtStart.at) / 1000;
  const parts = Object.keys(now)
    .filter((c) => stealAtStart.cores[c] !== undefined)
    .map((c) => `core ${c} ${(((now[c] - stealAtStart.cores[c]) / wall) * 100).toFixed(0)} %`);
  return wall > 0 ? parts.join(', ') : '';
}

export function printVerdicts(list = results) {
  console.log('\nbudget checks:');
  for (const r of list) console.log(`  ${r.ok === null ? 'INFO' : r.ok ? 'PASS' : 'FAIL'}  ${r.name}: ${r.value}  (${r.note})`);
  const stolen = stealSinceStart();
  if (stolen) console.log(`\nhypervisor steal during this run: ${stolen} (above a few per cent, every figure is slower than this code on a quiet machine)`);
}

export const fmt = (ms) => (Number.isFinite(ms) ? `${ms.toFixed(ms < 10 ? 2 : 1)} ms` : 'n/a');

/** Peak resident set of a running process (VmHWM, Linux), in MB; undefined elsewhere. */
export function peakRssMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
export function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far (Linux /proc); undefined elsewhere. */
export function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux)
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
