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
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../build-server.mjs';
import { createDatabase, dropDatabase, pgBase } from './pg.mjs';
import { makeCsrs } from './pki-library.mjs';
import { adminToken, call, cores, fmt, load, pinSelf, printVerdicts, rawConnection, rawRequest, root, sequential, startServer, verdict } from './lib.mjs';

const CONNECTIONS = 10;
const COMPILED = path.join(root, 'node_modules/.cache/umbo-bench/main.js');
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

export async function benchPki({ dialect = 'sqlite', seconds = 3, revoked = 2000 } = {}) {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const serverCpu = cores > 1 ? 1 : undefined;
  if (cores > 1) pinSelf('0');
  await buildServer({ quiet: true, outfile: COMPILED });
  const dbName = dialect === 'postgres' ? `umbo_bench_pki_${process.pid}` : undefined;
  if (dbName) await createDatabase(dbName);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-pki-'));
  const server = await startServer({ cpu: serverCpu, dataDir, entry: COMPILED, ...(dbName ? { databaseUrl: pgBase(dbName) } : {}) });
  try {
    const token = await adminToken(server.base);
    const csrs = await makeCsrs(50);
    const first = await call(server.base, 'POST', CERTS, { token, body: issueBody(csrs[0], 0) });
    if (first.status !== 200) throw new Error(`issuing answered ${first.status}: ${first.text.slice(0, 300)}`);

    const reqs = csrs.map((csr, i) => rawRequest(server.base, 'POST', CERTS, { headers: { authorization: `Bearer ${token}` }, body: issueBody(csr, i) }));
    const conns = Array.from({ length: CONNECTIONS }, () => rawConnection(server.base));
    let http;
    try {
      http = await load(
        async (loop, i) => {
          const { status } = await conns[loop].send(reqs[i % reqs.length]);
          if (status !== 200) throw new Error(`HTTP ${status}`);
        },
        { concurrency: CONNECTIONS, seconds, warmup: 1 },
      );
    } finally {
      for (const c of conns) c.close();
    }
    if (http.errors) throw new Error(`${http.errors} failed issuances (${http.firstError?.message})`);
    const lib = libraryRate(serverCpu, seconds);
    const ratio = http.perSec / lib;
    console.log(`\nCA issuance [${label}] — ${CONNECTIONS} connections, ${seconds} s`);
    console.log(`  HTTP ${http.perSec.toFixed(0)}/s (p50 ${fmt(http.p50)}, p99 ${fmt(http.p99)}); bare library ${lib.toFixed(0)}/s; ratio ${ratio.toFixed(2)}`);
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
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dbName) await dropDatabase(dbName);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchPki({ dialect: process.argv.includes('--pg') ? 'postgres' : 'sqlite' });
  printVerdicts();
}
