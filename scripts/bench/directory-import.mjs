/**
 * The CSV import part of the directory bench (issue 11: 100,000 rows without passwords,
 * ≥ 5,000 rows/s), on its own and cheaply: a small seed (`--count`, default 100,000) instead
 * of the million the whole bench lists, then each round a dry run and a real import of a file
 * no row of which exists yet.
 *
 *   node scripts/bench/directory.mjs --only import [--sqlite|--pg] [--count N] [--rows N]
 *       [--rounds N] [--entry old/main.js --entry new/main.js]
 *
 * `--entry` (repeatable): compiled servers (scripts/build-server.mjs) instead of main.ts under
 * tsx. With several, each has a database of its own, seeded alike, and the rounds alternate
 * between them (old, new, old, new…) so that the machine's noise falls on both; the medians
 * per build follow. A server is given one core when the machine has more (the bench, the
 * database and the other server take the rest).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { seedPostgres, seedSqlite } from './seed.mjs';
import { createDatabase, dropDatabase, pgBase } from './pg.mjs';
import { adminToken, call, cpuSeconds, onInterrupt, root, startServer, verdict } from './lib.mjs';

export const REALM = 'bench';

/** POSTs a CSV of `rows` new accounts (user name, email, phone; no password) named after `tag`. */
export async function importCsv(base, token, rows, dryRun, tag = '') {
  const lines = ['userName,email,phone'];
  // tag: a letter per round, its phones 14 + its digit + 8 (a prefix the seed never uses: seed.mjs)
  const t = tag ? `${tag}_` : '';
  const prefix = tag ? `14${tag.charCodeAt(0) % 10}` : '19';
  for (let i = 0; i < rows; i++) lines.push(`imported_${t}${i},imported.${t}${i}@import.example,+86${prefix}${String(i).padStart(11 - prefix.length, '0')}`);
  const body = lines.join('\n') + '\n';
  const t0 = performance.now();
  const r = await call(base, 'POST', `/api/users/realms/${REALM}/accounts/import${dryRun ? '?dryRun=1' : ''}`, {
    token,
    body,
    headers: { 'content-type': 'text/csv' },
  });
  const seconds = (performance.now() - t0) / 1000;
  return { status: r.status, data: r.json?.data, text: r.text, seconds, bytes: Buffer.byteLength(body) };
}

/** A server on a seeded database of its own: the bench realm and `count` accounts in it. */
async function seededServer({ dialect, count, entry, passwordHash, index }) {
  const dbName = dialect === 'postgres' ? `umbo_bench_imp_${process.pid}_${index}` : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-imp-'));
  const forget = onInterrupt(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const databaseUrl = dbName ? pgBase(dbName) : undefined;
  const cleanup = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    forget();
    if (dbName) await dropDatabase(dbName);
  };
  if (dbName) await createDatabase(dbName);
  let server;
  try {
    server = await startServer({ databaseUrl, dataDir, entry });
    const token = await adminToken(server.base);
    const made = await call(server.base, 'POST', '/api/users/realms', {
      token,
      body: { realmId: REALM, domain: 'bench.example.com', description: 'bench realm' },
    });
    if (made.status !== 200) throw new Error(`creating realm ${REALM}: ${made.status} ${made.text.slice(0, 300)}`);
    await server.stop({ keepData: true });
    const now = Date.now();
    if (dialect === 'sqlite') seedSqlite(path.join(dataDir, 'umbo.sqlite'), { realmId: REALM, count, now, passwordHash });
    else await seedPostgres(databaseUrl, { realmId: REALM, count, now, passwordHash });
    server = await startServer({ databaseUrl, dataDir, entry });
    return { server, token: await adminToken(server.base), cleanup };
  } catch (err) {
    await server?.stop({ keepData: true });
    await cleanup();
    throw err;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchImport({ dialect, count = 100_000, importRows = 100_000, rounds = 3, entries = [undefined] }) {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const nameOf = (e, i) => (e ? `${path.basename(path.dirname(e))}/${path.basename(e)}` : 'main.ts') + (entries.length > 1 ? `@${i + 1}` : '');
  console.log(`\nCSV import of ${importRows.toLocaleString('en')} rows into ${count.toLocaleString('en')} accounts [${label}], ${rounds} round(s)`);
  const { hash } = createRequire(path.join(root, 'apps/server/package.json'))('@node-rs/argon2');
  const passwordHash = await hash('Seeded-Passw0rd!', { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  const umbos = [];
  try {
    for (const [index, entry] of entries.entries()) umbos.push(await seededServer({ dialect, count, entry, passwordHash, index }));
    const figures = entries.map(() => ({ rate: [], dry: [], cpu: [] }));
    for (let round = 0; round < rounds; round++) {
      for (const [i, u] of umbos.entries()) {
        const tag = String.fromCharCode(97 + round); // a different file each round: none of its rows exists yet
        const dry = await importCsv(u.server.base, u.token, importRows, true, tag);
        const cpu0 = cpuSeconds(u.server.child.pid);
        const imp = await importCsv(u.server.base, u.token, importRows, false, tag);
        const cpu = (cpuSeconds(u.server.child.pid) ?? NaN) - (cpu0 ?? NaN);
        const created = imp.data?.created ?? 0;
        const rate = created / imp.seconds;
        if (imp.status !== 200 || created !== importRows) throw new Error(`import answered ${imp.status}: ${imp.text.slice(0, 300)}`);
        figures[i].rate.push(rate);
        figures[i].dry.push(dry.seconds);
        figures[i].cpu.push(cpu);
        console.log(
          `  round ${round + 1} ${nameOf(entries[i], i).padEnd(24)} dry run ${dry.seconds.toFixed(2)} s (HTTP ${dry.status}); import ${imp.seconds.toFixed(2)} s = ${Math.round(rate).toLocaleString('en')} rows/s, server CPU ${cpu.toFixed(2)} s`,
        );
      }
    }
    for (const [i, f] of figures.entries()) {
      const m = median(f.rate);
      console.log(
        `  median ${nameOf(entries[i], i)}: import ${Math.round(m).toLocaleString('en')} rows/s, dry run ${median(f.dry).toFixed(2)} s, server CPU ${median(f.cpu).toFixed(2)} s`,
      );
      verdict(
        `CSV import ${nameOf(entries[i], i)} [${label}]`,
        `${Math.round(m).toLocaleString('en')} rows/s (median of ${f.rate.length})`,
        m >= 5000,
        `all ${importRows.toLocaleString('en')} rows, ≥ 5,000 rows/s`,
      );
    }
  } finally {
    for (const u of umbos) {
      await u.server.stop({ keepData: true });
      await u.cleanup();
    }
  }
}
