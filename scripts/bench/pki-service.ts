/**
 * Where an issuance's CPU goes without HTTP (issue 13 "Bench"): THE issuance service
 * (pki/issue.ts) called in-process, one request at a time, with pre-made EC P-256 CSRs, on a
 * fresh SQLite file or PostgreSQL database; then its parts alone (CSR check, leaf encoding and
 * signing). Process CPU per issuance (user + system), not wall time, so a busy neighbour moves
 * the figures less; PostgreSQL's own CPU is not in them (scripts/bench/pki.mjs --pg counts it).
 *
 * node --import tsx scripts/bench/pki-service.ts [--pg] [count]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootstrap } from '../../apps/server/src/composition/bootstrap.js';
import { createContext } from '../../apps/server/src/composition/context.js';
import { systemClock } from '../../apps/server/src/platform/clock.js';
import { loadConfig } from '../../apps/server/src/platform/config.js';
import { openDb } from '../../apps/server/src/platform/db.js';
import { migrateToLatest } from '../../apps/server/src/platform/migrations/index.js';
import { encodeLeaf } from '../../apps/server/src/pki/cert-der.js';
import { parseCsr } from '../../apps/server/src/pki/input.js';
import { keyInfoOf, newSerial } from '../../apps/server/src/pki/profile.js';
// @ts-expect-error plain .mjs helpers of the bench
import { createDatabase, dropDatabase, pgBase } from './pg.mjs';
// @ts-expect-error plain .mjs helpers of the bench
import { makeCsrs } from './pki-library.mjs';

const usePg = process.argv.includes('--pg');
const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 2000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-pki-service-'));
const dbName = usePg ? `umbo_bench_pki_service_${process.pid}` : undefined;

/** CPU µs per call of `fn` over `n` calls, after a tenth of them as warm-up. */
async function cpuPer(n: number, fn: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < Math.ceil(n / 10); i++) await fn(i);
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn(i);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

if (dbName) await createDatabase(dbName);
try {
  const dbh = openDb(dbName ? pgBase(dbName) : `sqlite:${path.join(dataDir, 'umbo.sqlite')}`);
  await migrateToLatest(dbh.db);
  await bootstrap(dbh.db, systemClock, 'bench-password-1');
  const config = loadConfig({ DATA_DIR: dataDir, MASTER_KEY: 'be'.repeat(32), PUBLIC_URL: 'http://umbo.bench', LOG_LEVEL: 'silent' });
  const ctx = createContext(config, dbh, systemClock);
  const admin = await dbh.db.selectFrom('accounts').select(['id', 'realm_id', 'username']).where('username', '=', 'admin').executeTakeFirstOrThrow();
  const account = { id: admin.id, realmId: admin.realm_id, username: admin.username };
  const caller = { actor: { id: admin.id, name: admin.username }, request: { ip: '127.0.0.1', userAgent: '' } } as never;
  const csrs = (await makeCsrs(50)) as string[];
  const { pkiIssue, pkiCa } = ctx.services;
  const issue = (i: number) =>
    pkiIssue.issue({
      account,
      type: 'device',
      csrPem: csrs[i % csrs.length]!,
      cnType: 'deviceId',
      cn: `bench-device-${i}`,
      san: [{ type: 'dns', value: `device-${i}.bench.test` }],
      desc: '',
      caller,
    });
  const service = await cpuPer(count, issue);
  const csr = await cpuPer(count, (i) => parseCsr(csrs[i % csrs.length]));
  const [ca] = await pkiCa.accountChain(account, caller);
  const parsed = await parseCsr(csrs[0]);
  const key = keyInfoOf(parsed.publicKey ?? parsed.spkiDer);
  const urls = pkiCa.urlsOf(account.realmId, ca!.row.id);
  const encode = await cpuPer(count, (i) =>
    encodeLeaf({
      serialHex: newSerial().hex,
      issuerSubjectDer: ca!.subjectDer,
      issuerKeyIdHex: ca!.keyId,
      notBefore: Date.now(),
      notAfter: Date.now() + 864e5,
      cn: `bench-device-${i}`,
      spkiDer: parsed.spkiDer,
      key,
      type: 'device',
      san: [{ type: 'dns', value: `device-${i}.bench.test` }],
      urls,
      signer: ca!.signer.keyObject,
    }),
  );
  console.log(
    `issuance service [${usePg ? 'PostgreSQL' : 'SQLite'}], ${count} one at a time: ${service.toFixed(0)} µs CPU each` +
      ` — CSR read + verify ${csr.toFixed(0)} µs, leaf encode + sign ${encode.toFixed(0)} µs, the rest (chain, rules, SQL, audit) ${(service - csr - encode).toFixed(0)} µs`,
  );
  await ctx.close();
  await dbh.close();
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (dbName) await dropDatabase(dbName);
}
