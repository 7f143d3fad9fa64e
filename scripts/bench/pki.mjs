/**
 * The CA's cost (issue 13 "Bench"): certificates issued per second from EC P-256 CSRs over HTTP
 * (POST /api/cert/certs, 10 keep-alive connections, the admin's own account CA), divided by the
 * bare library rate (scripts/bench/pki-library.mjs: parse CSR + verify + issue + PEM) measured in
 * the same run on the same core. umbo runs compiled, as `npm start` runs it, pinned to core 1,
 * the load client on core 0. Then the time of a revocation (which regenerates its CA's CRL) as
 * the revoked list grows, and the CRL encoder alone at 100,000 entries (scripts/bench/pki-crl.ts).
 *
 * Targets: HTTP ÷ library ≥ 0.7; stretch 1,000 certificates/s.
 * Standalone: node scripts/bench/pki.mjs [--pg]
 * Two builds compared (issuance only, alternating, several rounds: the machine is shared, so only
 * figures of one run compare): node scripts/bench/pki.mjs [--pg] --entry old.js --entry new.js [--rounds 5]
 * — each round measures the library rate once and every build's HTTP rate, ratio and server CPU
 * per issuance; the medians follow.
 *
 * Besides the server's CPU per issuance, each run prints PostgreSQL's (its backends for the
 * bench database, --pg: a share the server's own figure leaves out) and the load client's (it
 * sends prebuilt requests from CSRs made before the run, so it is not what limits the rate).
 * Where the server's share goes without HTTP: node --import tsx scripts/bench/pki-service.ts [--pg]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, dropDatabase, pgBase } from './pg.mjs';
import { makeCsrs } from './pki-library.mjs';
import {
  COMPILED,
  compiledServer,
  adminToken,
  call,
  cores,
  cpuSeconds,
  fmt,
  hasTaskset,
  load,
  pinSelf,
  printVerdicts,
  rawConnection,
  rawRequest,
  root,
  sequential,
  startServer,
  verdict,
} from './lib.mjs';

const CONNECTIONS = 10;
const CERTS = '/api/cert/certs';

function libraryRate(cpu, seconds) {
  const args = ['scripts/bench/pki-library.mjs', String(seconds)];
  const r =
    cpu !== undefined
      ? spawnSync('taskset', ['-c', String(cpu), 'node', ...args], { cwd: root, encoding: 'utf8' })
      : spawnSync('node', args, { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pki-library.mjs failed: ${r.stderr || r.stdout}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()).perSec;
}

const issueBody = (csrPem, i) => ({ csrPem, cnType: 'deviceId', cn: `bench-device-${i}`, san: [{ type: 'dns', value: `device-${i}.bench.test` }] });

/**
 * CPU seconds so far of the PostgreSQL backends serving database `dbName` (the server's pool),
 * by pid: PostgreSQL runs on this machine, and its share of an issuance is CPU the server
 * process's own figure leaves out. Undefined when the database is not local PostgreSQL.
 */
async function backendCpu(dbName) {
  if (!dbName) return undefined;
  const client = new pg.Client({ connectionString: pgBase(dbName), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const { rows } = await client.query('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    const out = new Map();
    for (const { pid } of rows) {
      const s = cpuSeconds(pid);
      if (s !== undefined) out.set(pid, s);
    }
    return out.size ? out : undefined;
  } finally {
    await client.end();
  }
}

/**
 * CPU seconds so far of the server's main thread alone (Linux /proc; its thread id is its pid).
 * The process figure also counts V8's helper threads (JIT compiles, parallel GC) and the SQLite
 * checkpoint worker: on a server started seconds before, they are 100–300 µs of an issuance.
 */
function mainThreadCpu(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** CPU the backends used between two backendCpu readings (a backend opened in between counts from zero). */
const backendDelta = (a, b) => (a && b ? [...b].reduce((sum, [pid, s]) => sum + s - (a.get(pid) ?? 0), 0) : undefined);

/**
 * Issues from `csrs` over `CONNECTIONS` keep-alive connections for `seconds`: rate, latencies,
 * the server's CPU per issuance, PostgreSQL's (dbName given) and this load client's — which
 * sends prebuilt requests from CSRs made before, so it is not what limits the rate.
 */
async function issueLoad(server, token, csrs, seconds, dbName) {
  const reqs = csrs.map((csr, i) => rawRequest(server.base, 'POST', CERTS, { headers: { authorization: `Bearer ${token}` }, body: issueBody(csr, i) }));
  const conns = Array.from({ length: CONNECTIONS }, () => rawConnection(server.base));
  let http;
  try {
    const once = async (loop, i) => {
      const { status } = await conns[loop].send(reqs[i % reqs.length]);
      if (status !== 200) throw new Error(`HTTP ${status}`);
    };
    await load(once, { concurrency: CONNECTIONS, seconds: 1 });
    const db0 = await backendCpu(dbName);
    const cpu0 = cpuSeconds(server.child.pid);
    const main0 = mainThreadCpu(server.child.pid);
    const client0 = process.cpuUsage();
    http = await load(once, { concurrency: CONNECTIONS, seconds });
    const client = process.cpuUsage(client0);
    const cpu1 = cpuSeconds(server.child.pid);
    const main1 = mainThreadCpu(server.child.pid);
    const db = backendDelta(db0, await backendCpu(dbName));
    const n = http.perSec * seconds;
    if (cpu0 !== undefined && cpu1 !== undefined) http.cpuPer = (cpu1 - cpu0) / n;
    if (main0 !== undefined && main1 !== undefined) http.mainCpuPer = (main1 - main0) / n;
    if (db !== undefined) http.dbCpuPer = db / n;
    http.clientCpuPer = (client.user + client.system) / 1e6 / n;
  } finally {
    for (const c of conns) c.close();
  }
  if (http.errors) throw new Error(`${http.errors} failed issuances (${http.firstError?.message})`);
  return http;
}

/** A fresh database and server from `entry`, stopped after `work(server)`. */
async function withServer(dialect, entry, cpu, work) {
  const dbName = dialect === 'postgres' ? `umbo_bench_pki_${process.pid}` : undefined;
  if (dbName) await createDatabase(dbName);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-pki-'));
  let server;
  try {
    // inside the try: a server that fails to start leaves no database behind
    server = await startServer({ cpu, dataDir, entry, ...(dbName ? { databaseUrl: pgBase(dbName) } : {}) });
    return await work(server, dbName);
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dbName) await dropDatabase(dbName);
  }
}

async function firstIssuance(server, csrs) {
  const token = await adminToken(server.base);
  const first = await call(server.base, 'POST', CERTS, { token, body: issueBody(csrs[0], 0) });
  if (first.status !== 200) throw new Error(`issuing answered ${first.status}: ${first.text.slice(0, 300)}`);
  return token;
}

/** Where the processes run: the rate of a server that shares its core with the load client is not its own. */
const pinning = (serverCpu) =>
  serverCpu === undefined
    ? 'one core: nothing pinned'
    : hasTaskset
      ? `server pinned to core ${serverCpu}, load client to core 0`
      : 'no taskset: nothing pinned';

/** Server, PostgreSQL and load-client CPU per issuance, in µs. */
const cpuText = (http) =>
  `server CPU ${(http.cpuPer * 1e6).toFixed(0)} µs/issuance` +
  (http.mainCpuPer !== undefined ? ` (main thread ${(http.mainCpuPer * 1e6).toFixed(0)})` : '') +
  (http.dbCpuPer !== undefined ? `, PostgreSQL ${(http.dbCpuPer * 1e6).toFixed(0)} µs` : '') +
  `, load client ${(http.clientCpuPer * 1e6).toFixed(0)} µs`;

/** A build's name in the output: its file, or its folder when the file is main.js. */
const nameOf = (entry) => (path.basename(entry) === 'main.js' ? path.basename(path.dirname(entry)) : path.basename(entry));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Builds compared: per round the library rate, then each entry's issuance; medians at the end. */
export async function comparePki({ dialect = 'sqlite', entries, rounds = 5, seconds = 3 }) {
  const serverCpu = cores > 1 ? 1 : undefined;
  if (cores > 1) pinSelf('0');
  const csrs = await makeCsrs(50);
  const res = entries.map(() => ({ ratio: [], perSec: [], cpu: [], main: [], db: [] }));
  console.log(`issuance over HTTP [${dialect}], ${CONNECTIONS} connections, ${seconds} s per build and round (${pinning(serverCpu)})`);
  for (let r = 0; r < rounds; r++) {
    const lib = libraryRate(serverCpu, seconds);
    // the order alternates: a neighbour's load in one half of a round does not always hit the same build
    const order = entries.map((_, k) => k);
    if (r % 2) order.reverse();
    for (const k of order) {
      const http = await withServer(dialect, entries[k], serverCpu, async (server, dbName) =>
        issueLoad(server, await firstIssuance(server, csrs), csrs, seconds, dbName),
      );
      res[k].ratio.push(http.perSec / lib);
      res[k].perSec.push(http.perSec);
      res[k].cpu.push(http.cpuPer * 1e6);
      if (http.mainCpuPer !== undefined) res[k].main.push(http.mainCpuPer * 1e6);
      if (http.dbCpuPer !== undefined) res[k].db.push(http.dbCpuPer * 1e6);
      console.log(
        `round ${r + 1} ${nameOf(entries[k])}: ${http.perSec.toFixed(0)}/s, library ${lib.toFixed(0)}/s, ratio ${(http.perSec / lib).toFixed(2)}, ${cpuText(http)}`,
      );
    }
  }
  for (const [k, e] of entries.entries()) {
    const m = res[k];
    const db = m.db.length ? ` + PostgreSQL ${median(m.db).toFixed(0)} µs` : '';
    const main = m.main.length ? ` (main thread ${median(m.main).toFixed(0)})` : '';
    console.log(
      `median ${nameOf(e)} [${dialect}]: ratio ${median(m.ratio).toFixed(2)}, ${median(m.perSec).toFixed(0)}/s, CPU ${median(m.cpu).toFixed(0)} µs/issuance${main}${db}`,
    );
  }
}

export async function benchPki({ dialect = 'sqlite', seconds = 3, revoked = 2000 } = {}) {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const serverCpu = cores > 1 ? 1 : undefined;
  if (cores > 1) pinSelf('0');
  await compiledServer();
  const csrs = await makeCsrs(50);
  await withServer(dialect, COMPILED, serverCpu, async (server, dbName) => {
    const token = await firstIssuance(server, csrs);
    const http = await issueLoad(server, token, csrs, seconds, dbName);
    const lib = libraryRate(serverCpu, seconds);
    const ratio = http.perSec / lib;
    console.log(`\nCA issuance [${label}] — ${CONNECTIONS} connections, ${seconds} s (${pinning(serverCpu)})`);
    console.log(`  HTTP ${http.perSec.toFixed(0)}/s (p50 ${fmt(http.p50)}, p99 ${fmt(http.p99)}); bare library ${lib.toFixed(0)}/s; ratio ${ratio.toFixed(2)}`);
    console.log(`  ${cpuText(http)}`);
    verdict(
      `certificates/s over HTTP ÷ library [${label}]`,
      `${ratio.toFixed(2)} (${http.perSec.toFixed(0)} vs ${lib.toFixed(0)}/s)`,
      ratio >= 0.7,
      'target ≥ 0.7',
    );
    verdict(`certificates/s over HTTP [${label}]`, `${http.perSec.toFixed(0)}/s`, http.perSec >= 1000, 'stretch 1,000/s');

    // CRL regeneration as the revoked list grows: revoke `revoked` certificates one by one.
    const ids = [];
    let cursor;
    while (ids.length < revoked) {
      const page = await call(server.base, 'GET', `${CERTS}?limit=100&status=valid${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
      for (const c of page.json?.data?.items ?? []) ids.push(c.id);
      cursor = page.json?.data?.next;
      if (!cursor) break;
    }
    const chunk = Math.max(1, Math.floor(ids.length / 5));
    for (let k = 0; k < ids.length; k += chunk) {
      const part = ids.slice(k, k + chunk);
      const s = await sequential(async (i) => {
        const r = await call(server.base, 'POST', `${CERTS}/${encodeURIComponent(part[i])}/revoke`, { token, body: { reason: 'superseded' } });
        if (r.status !== 200) throw new Error(`revoke answered ${r.status}: ${r.text.slice(0, 200)}`);
      }, part.length);
      console.log(`  revocation with CRL regeneration at ${k + part.length} revoked: p50 ${fmt(s.p50)}, p99 ${fmt(s.p99)}`);
    }
    // CRL regeneration at 100,000 revoked entries: the encoder each revocation runs, measured apart
    // (revoking 100,000 certificates one by one over HTTP would take the bench hours).
    const big = spawnSync('node', ['--import', 'tsx', 'scripts/bench/pki-crl.ts', '100000'], { cwd: root, encoding: 'utf8' });
    if (big.status !== 0) throw new Error(`pki-crl.ts failed: ${big.stderr || big.stdout}`);
    const crl = JSON.parse(big.stdout.trim().split('\n').pop());
    console.log(`  CRL of ${crl.count} revoked entries: ${fmt(crl.ms)} to encode and sign, ${(crl.bytes / 1e6).toFixed(1)} MB (openssl verified it)`);
    verdict(`CRL regeneration at 100,000 revoked entries [${label}]`, fmt(crl.ms), true, 'measured (no budget named)');
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dialect = process.argv.includes('--pg') ? 'postgres' : 'sqlite';
  const entries = process.argv.flatMap((a, i) => (a === '--entry' ? [path.resolve(process.argv[i + 1])] : []));
  const at = process.argv.indexOf('--rounds');
  if (entries.length) await comparePki({ dialect, entries, rounds: at > 0 ? Number(process.argv[at + 1]) : 5 });
  else {
    await benchPki({ dialect });
    printVerdicts();
  }
}
