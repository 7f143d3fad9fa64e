/**
 * The guard's cost (issue 11 "Bench"): authenticated reads per second — GET /api/users/account
 * and GET /api/perm/user/info with an administrator's bearer token — against a bare Fastify
 * hello-world (scripts/bench/hello.mjs) in the same run, with the same client and the same
 * concurrency (10 keep-alive connections), each server pinned to the same one core and the
 * client to another. Target: every authenticated read ≥ 0.25 × hello-world.
 *
 * Turns alternate (hello, account, info, hello, …) so that the machine's drift — other work on
 * these cores — falls on every figure alike; each read is compared with the mean of all hello
 * turns. Beside requests per second, the server's CPU time per request is measured (from
 * /proc): the same ratio, far less sensitive to other processes competing for the core.
 * /healthz (no guard, no database) shows what the platform's hooks cost on their own.
 *
 * umbo runs compiled (scripts/build-server.mjs, plain node), as `npm start` runs it: under tsx the
 * same reads cost 10–25 % more CPU and show a p99 four times higher, which is not what operators run.
 *
 * Standalone: node scripts/bench/guard.mjs [--pg | --both] [--seconds N] [--rounds N] [--entry main.js …]
 * `--entry` (repeatable): other compiled servers instead of this tree's; with several, each gets
 * its own database and the turns alternate between them (old vs new build in the same period,
 * each compared with the same hello-world turns).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createDatabase, dropDatabase, pgBase } from './pg.mjs';
import {
  COMPILED,
  adminToken,
  compiledServer,
  cores,
  cpuSeconds,
  fmt,
  freePort,
  hasTaskset,
  load,
  pinSelf,
  printVerdicts,
  rawConnection,
  rawRequest,
  root,
  spawnNode,
  startServer,
  SERVER_CORE,
  stealSeconds,
  stealShown,
  verdict,
  waitReady,
} from './lib.mjs';

const CONNECTIONS = 10;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function startHello(cpu) {
  const port = await freePort();
  const child = spawnNode(['scripts/bench/hello.mjs'], { cpu, env: { PORT: String(port) } });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(base, child, 'hello-world');
  return { base, child, stop: () => child.kill() };
}

/** One turn: 1 s of warm-up, then `seconds` measured; answers requests/s, p99 and server CPU µs per request. */
async function turn(target, seconds) {
  const conns = Array.from({ length: CONNECTIONS }, () => rawConnection(target.base));
  try {
    const once = async (loop) => {
      const { status } = await conns[loop].send(target.req);
      if (status !== 200) throw new Error(`${target.label}: HTTP ${status}`);
    };
    await load(once, { concurrency: CONNECTIONS, seconds: 1 });
    const cpu0 = cpuSeconds(target.pid);
    const steal0 = stealSeconds()[SERVER_CORE];
    const t0 = performance.now();
    const r = await load(once, { concurrency: CONNECTIONS, seconds });
    const cpu1 = cpuSeconds(target.pid);
    // a share of the turn as it ran (the last requests finish after `seconds`)
    const steal = (stealSeconds()[SERVER_CORE] - steal0) / ((performance.now() - t0) / 1000);
    if (r.errors) throw new Error(`${target.label}: ${r.errors} errors (${r.firstError?.message})`);
    return { perSec: r.perSec, p99: r.p99, steal, cpuUs: cpu0 === undefined || cpu1 === undefined ? NaN : ((cpu1 - cpu0) * 1e6) / r.n };
  } finally {
    for (const c of conns) c.close();
  }
}

/**
 * `dialect`: 'sqlite' or 'postgres' (a database of its own, created and dropped here).
 * Answers requests per second and CPU µs per request of each target.
 */
export async function benchGuard({ dialect = 'sqlite', seconds = 3, rounds = 3, entries = [COMPILED] } = {}) {
  if (entries.includes(COMPILED)) await compiledServer();
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const serverCpu = cores > 1 ? 1 : undefined;
  if (cores > 1) pinSelf('0');
  const dbNames = dialect === 'postgres' ? entries.map((_, i) => `umbo_bench_guard_${process.pid}_${i}`) : [];
  for (const dbName of dbNames) await createDatabase(dbName);
  const hello = await startHello(serverCpu);
  const umbos = [];
  try {
    for (const [i, entry] of entries.entries()) {
      umbos.push(await startServer({ cpu: serverCpu, entry, ...(dbNames[i] ? { databaseUrl: pgBase(dbNames[i]) } : {}) }));
    }
    const target = (label, base, pid, url, headers = {}) => ({ label, base, pid, req: rawRequest(base, 'GET', url, { headers }) });
    const targets = { hello: target('Fastify hello-world', hello.base, hello.child.pid, '/hello') };
    for (const [i, umbo] of umbos.entries()) {
      const auth = { authorization: `Bearer ${await adminToken(umbo.base)}` };
      // with several builds, each figure names its build: `account@2` is the second --entry's
      const tag = entries.length > 1 ? `@${i + 1}` : '';
      targets[`healthz${tag}`] = target(`GET /healthz (no guard)${tag}`, umbo.base, umbo.child.pid, '/healthz');
      targets[`account${tag}`] = target(`GET /api/users/account${tag}`, umbo.base, umbo.child.pid, '/api/users/account', auth);
      targets[`info${tag}`] = target(`GET /api/perm/user/info${tag}`, umbo.base, umbo.child.pid, '/api/perm/user/info', auth);
    }
    const runs = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
    for (let r = 0; r < rounds; r++) for (const name of Object.keys(targets)) runs[name].push(await turn(targets[name], seconds));
    runs.hello.push(await turn(targets.hello, seconds));

    const pinned =
      serverCpu !== undefined
        ? `servers pinned to core ${serverCpu}, client to core 0`
        : hasTaskset
          ? 'one core: nothing pinned'
          : 'no taskset: nothing pinned';
    console.log(`\nguard cost [${label}] — ${CONNECTIONS} keep-alive connections, ${seconds} s turns × ${rounds} (${pinned})`);
    const figures = {};
    for (const [name, list] of Object.entries(runs)) {
      figures[name] = { perSec: mean(list.map((t) => t.perSec)), cpuUs: mean(list.map((t) => t.cpuUs)) };
      console.log(
        `  ${targets[name].label.padEnd(30)} ${figures[name].perSec.toFixed(0).padStart(7)}/s  p99 ${fmt(Math.max(...list.map((t) => t.p99))).padStart(8)}  server CPU ${figures[name].cpuUs.toFixed(0).padStart(4)} µs/request  steal ≤ ${stealShown(list)}  (turns ${list.map((t) => t.perSec.toFixed(0)).join(', ')})`,
      );
    }
    // where the time goes, step by step, on the same database
    if (!process.env.BENCH_GUARD_NO_PARTS) {
      const parts = spawnSync('node', ['--import', 'tsx', '../../scripts/bench/guard-parts.ts', ...(dbNames[0] ? [pgBase(dbNames[0])] : [])], {
        cwd: path.join(root, 'apps/server'),
        encoding: 'utf8',
      });
      const lines = (parts.stdout || '').trim().split('\n');
      lines.pop();
      if (parts.status === 0) console.log(lines.join('\n'));
      else process.stderr.write(`scripts/bench/guard-parts.ts failed: ${parts.stderr}\n`);
    }
    for (const name of Object.keys(targets).filter((n) => /^(account|info)/.test(n))) {
      const ratio = figures[name].perSec / figures.hello.perSec;
      const cpuRatio = figures.hello.cpuUs / figures[name].cpuUs;
      verdict(
        `${targets[name].label} ÷ hello-world [${label}]`,
        `${ratio.toFixed(2)} by requests/s, ${cpuRatio.toFixed(2)} by server CPU per request`,
        ratio >= 0.25,
        'target ≥ 0.25 (requests/s); the CPU ratio is the same measure, less sensitive to other work on the machine',
      );
    }
    return figures;
  } finally {
    for (const umbo of umbos) await umbo.stop();
    hello.stop();
    for (const dbName of dbNames) await dropDatabase(dbName);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : dflt;
  };
  const dialects = process.argv.includes('--pg') ? ['postgres'] : process.argv.includes('--both') ? ['sqlite', 'postgres'] : ['sqlite'];
  const entries = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--entry' ? [path.resolve(a)] : []));
  for (const dialect of dialects)
    await benchGuard({ dialect, seconds: arg('--seconds', 3), rounds: arg('--rounds', 3), ...(entries.length ? { entries } : {}) });
  printVerdicts();
}
