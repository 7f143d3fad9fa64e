/**
 * The person-account directory at scale (issue 11 "Bench"): `count` (default 1,000,000)
 * person accounts in one realm, on SQLite (a file in a temp data dir) and on PostgreSQL (a
 * database of its own, created and dropped here), measured through the API of the real
 * server, compiled as `npm start` runs it (GET /api/users/realms/:realmId/accounts and its
 * CSV import and export) with an administrator's token, one request at a time:
 *
 * - prefix search on user name / email / phone / id: p50 ≤ 5 ms and p99 ≤ 25 ms (each field)
 * - any list page at any depth: p99 ≤ 15 ms — every page of the whole list walked with keyset
 *   cursors, 100 rows a page (newest first), plus pages by user name (also of the disabled,
 *   and of the disabled never activated), backwards, and jumps to a registration date
 * - "contains" search: p99 ≤ 100 ms
 * - totals (a one-row page: what counting costs): p99 ≤ 5 ms
 * - CSV import of 100,000 rows without passwords: ≥ 5,000 rows/s; CSV export of every row:
 *   rows/s and the server's peak RSS while it streams (flat memory)
 *
 * Standalone: node scripts/bench/directory.mjs [--quick] [--sqlite|--pg] [--count N]
 * The import alone, on a small seed, old and new builds alternating (directory-import.mjs):
 *   node scripts/bench/directory.mjs --only import [--sqlite|--pg] [--count N] [--rows N] [--rounds N] [--entry main.js …]
 * The contains search alone, builds alternating on copies of one seeded database, which
 * `--keep` keeps for the next run and `--drop` drops (directory-contains.mjs):
 *   node scripts/bench/directory.mjs --only contains [--sqlite|--pg] [--count N] [--rounds N] [--keep] [--entry main.js …]
 */
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { benchImport, importCsv, REALM } from './directory-import.mjs';
import { benchContains, dropSeeded, picker, terms } from './directory-contains.mjs';
import { seedPostgres, seedSqlite } from './seed.mjs';
import { createDatabase, dropDatabase, pgBase } from './pg.mjs';
import { adminToken, call, compiledServer, fmt, onInterrupt, printVerdicts, root, rssMb, sequential, startServer, verdict } from './lib.mjs';

/** Seconds one measurement may take (at least 20 requests run): slow plans must not stretch the bench to hours. */
const LIMIT_S = 15;

/** A keep-alive JSON GET that answers the parsed body (node:http: one socket, reused). */
function getter(base, token) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const u = new URL(base);
  const get = (urlPath) =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: u.hostname, port: u.port, path: urlPath, agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) return reject(new Error(`GET ${urlPath}: ${res.statusCode} ${text.slice(0, 300)}`));
          resolve(JSON.parse(text).data);
        });
      });
      req.on('error', reject);
      req.end();
    });
  return { get, close: () => agent.destroy() };
}

const qs = (o) =>
  Object.entries(o)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
const nextOf = (page) => page.nextCursor ?? page.next ?? null;
const prevOf = (page) => page.prevCursor ?? page.prev ?? null;

function line(label, st, extra = '') {
  const n = `(n=${st.n}${st.cut ? ', cut short by its time limit' : ''})`;
  console.log(`  ${label.padEnd(44)} p50 ${fmt(st.p50).padStart(9)}  p99 ${fmt(st.p99).padStart(9)}  max ${fmt(st.max).padStart(9)}  ${n}${extra}`);
}

async function exportAll(base, token, pid) {
  let rows = -1; // the header
  let rssPeak = 0;
  const rssBefore = rssMb(pid) ?? NaN;
  const timer = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid) ?? 0)), 50);
  const t0 = performance.now();
  let bytes = 0;
  try {
    await new Promise((resolve, reject) => {
      const u = new URL(`/api/users/realms/${REALM}/accounts/export.csv`, base);
      const req = http.get(u, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`export: HTTP ${res.statusCode}`));
        res.on('data', (c) => {
          bytes += c.length;
          for (let k = c.indexOf(10); k !== -1; k = c.indexOf(10, k + 1)) rows++;
        });
        res.on('end', resolve);
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - t0) / 1000;
  return { rows, seconds, bytes, rssBefore, rssPeak: Math.max(rssPeak, rssMb(pid) ?? 0) };
}

/**
 * Seeds and measures one database. `dialect`: 'sqlite' | 'postgres'. Answers nothing; adds
 * verdicts (lib.mjs) and prints figures.
 */
export async function benchDirectory({ dialect, count = 1_000_000, quick = false, importRows = quick ? 20_000 : 100_000, entry }) {
  // compiled, as `npm start` runs it (until stop 32 this part ran main.ts under tsx)
  entry = await compiledServer(entry);
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const dbName = dialect === 'postgres' ? `umbo_bench_dir_${process.pid}` : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-dir-'));
  const forget = onInterrupt(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const databaseUrl = dbName ? pgBase(dbName) : undefined;
  if (dbName) await createDatabase(dbName);
  let server;
  try {
    console.log(`\ndirectory at ${count.toLocaleString('en')} person accounts [${label}]`);
    // 1. migrations, first administrator, the bench realm — by the server itself
    server = await startServer({ databaseUrl, dataDir, entry });
    let token = await adminToken(server.base);
    const made = await call(server.base, 'POST', '/api/users/realms', {
      token,
      body: { realmId: REALM, domain: 'bench.example.com', description: 'bench realm' },
    });
    if (made.status !== 200) throw new Error(`creating realm ${REALM}: ${made.status} ${made.text.slice(0, 300)}`);
    // one real argon2id hash (auth/passwords.ts parameters) carried by most rows
    const { hash } = createRequire(path.join(root, 'apps/server/package.json'))('@node-rs/argon2');
    const passwordHash = await hash('Seeded-Passw0rd!', { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
    await server.stop({ keepData: true });
    server = undefined;

    // 2. the rows, straight into the database
    const now = Date.now();
    const seeded =
      dialect === 'sqlite'
        ? seedSqlite(path.join(dataDir, 'umbo.sqlite'), { realmId: REALM, count, now, passwordHash })
        : await seedPostgres(databaseUrl, { realmId: REALM, count, now, passwordHash });
    console.log(`  seeded in ${seeded.seconds.toFixed(1)} s (${Math.round(seeded.rowsPerSec).toLocaleString('en')} rows/s)`);
    verdict(
      `seeding ${count.toLocaleString('en')} accounts [${label}]`,
      `${seeded.seconds.toFixed(0)} s`,
      seeded.seconds < 600,
      'minutes, not hours (< 10 min)',
    );

    // 3. the server again, on the full table
    server = await startServer({ databaseUrl, dataDir, entry });
    token = await adminToken(server.base);
    const api = getter(server.base, token);
    const list = (o) => api.get(`/api/users/realms/${REALM}/accounts?${qs(o)}`);
    try {
      // warm up: the first queries of each shape load pages and plans
      const warmEnd = performance.now() + 15_000;
      for (const f of ['username', 'email', 'phone', 'id'])
        for (const q of terms(count, now, 20, f)) if (performance.now() < warmEnd) await list({ q, field: f, limit: 20 });

      const n = quick ? 100 : 300;
      const prefix = {};
      for (const field of ['username', 'email', 'phone', 'id', 'any']) {
        const qsFor = terms(count, now, n, field === 'any' ? 'username' : field);
        let found = 0;
        const st = await sequential(
          async (i) => {
            const page = await list({ q: qsFor[i], field, limit: 20 });
            if (page.items.length) found++;
          },
          n,
          { maxSeconds: LIMIT_S },
        );
        prefix[field] = st;
        line(`prefix search, ${field}`, st, `  ${Math.round((100 * found) / st.n)} % found rows`);
        if (field !== 'any')
          verdict(`prefix search ${field} [${label}]`, `p50 ${fmt(st.p50)}, p99 ${fmt(st.p99)}`, st.p50 <= 5 && st.p99 <= 25, 'p50 ≤ 5 ms, p99 ≤ 25 ms');
      }

      // every page, newest first, 100 rows a page
      const pages = quick ? Math.min(1000, Math.ceil(count / 100)) : Math.ceil(count / 100);
      let page;
      let cursor;
      let rowsSeen = 0;
      const walk = await sequential(
        async () => {
          page = await list({ limit: 100, ...(cursor ? { cursor } : {}) });
          rowsSeen += page.items.length;
          cursor = nextOf(page);
        },
        pages,
        { maxSeconds: 6 * LIMIT_S },
      );
      line(`pages newest first, 100 rows, ${pages.toLocaleString('en')} pages`, walk, `  ${rowsSeen.toLocaleString('en')} rows`);
      if (!quick && !walk.cut && (rowsSeen !== count || cursor))
        console.log(`  !! the walk saw ${rowsSeen} rows of ${count} (cursor left: ${Boolean(cursor)})`);
      // backwards from where the walk ended
      let back = prevOf(page);
      const backWalk = await sequential(
        async () => {
          if (!back) return;
          const p = await list({ limit: 100, cursor: back });
          back = prevOf(p);
        },
        quick ? 100 : 300,
        { maxSeconds: LIMIT_S },
      );
      line('pages backwards from the deepest', backWalk);
      // by user name, 20 rows a page (the console's page)
      let ucur;
      const byName = await sequential(
        async () => {
          const p = await list({ sort: 'username', order: 'asc', limit: 20, ...(ucur ? { cursor: ucur } : {}) });
          ucur = nextOf(p);
        },
        quick ? 300 : 2000,
        { maxSeconds: LIMIT_S },
      );
      line('pages by user name, 20 rows', byName);
      // by user name under a filter the name index does not order: the disabled (~2 %), and
      // the disabled never activated (~0.06 %), each walked from its first page again at its end
      const filteredByName = {};
      for (const [which, filter] of [
        ['disabled', { status: 'disabled' }],
        ['disabled unactivated', { status: 'disabled', activated: 'no' }],
      ]) {
        let fcur;
        filteredByName[which] = await sequential(
          async () => {
            const p = await list({ sort: 'username', order: 'asc', limit: 20, ...filter, ...(fcur ? { cursor: fcur } : {}) });
            fcur = nextOf(p) ?? undefined;
          },
          quick ? 100 : 300,
          { maxSeconds: LIMIT_S },
        );
        line(`pages by name, ${which}, 20 rows`, filteredByName[which]);
      }
      // jumps to a registration date, anywhere in six years
      const span = 6 * 365.25 * 24 * 3600 * 1000;
      const pick = picker(1 << 30, 11);
      const jump = await sequential(() => list({ limit: 20, createdTo: Math.floor(now - (span * (pick() % 10_000)) / 10_000) }), quick ? 100 : 300, {
        maxSeconds: LIMIT_S,
      });
      line('jump to a registration date, 20 rows', jump);
      const worst = Math.max(walk.p99, backWalk.p99, byName.p99, jump.p99, ...Object.values(filteredByName).map((st) => st.p99));
      verdict(
        `list page at any depth [${label}]`,
        `p99 ${fmt(worst)} (worst of walk, backwards, by name, by name filtered, jumps)`,
        worst <= 15,
        'p99 ≤ 15 ms',
      );

      const contains = {};
      for (const field of ['username', 'any']) {
        const qsFor = terms(count, now, quick ? 20 : 50, 'contains');
        const st = await sequential((i) => list({ q: qsFor[i], field, match: 'contains', limit: 20 }), qsFor.length, { maxSeconds: LIMIT_S });
        contains[field] = st;
        line(`contains search, ${field}`, st);
      }
      const cworst = Math.max(contains.username.p99, contains.any.p99);
      verdict(`contains search [${label}]`, `p99 ${fmt(cworst)}`, cworst <= 100, 'p99 ≤ 100 ms');

      // totals: a one-row page is the count plus one index probe
      const filters = [{}, { status: 'disabled' }, { activated: 'no' }, { status: 'enabled', activated: 'yes' }, { createdFrom: now - span / 6 }];
      const totals = await sequential((i) => list({ limit: 1, ...filters[i % filters.length] }), quick ? 100 : 300, { maxSeconds: LIMIT_S });
      line('totals (one-row pages, 5 filters)', totals);
      verdict(`totals [${label}]`, `p50 ${fmt(totals.p50)}, p99 ${fmt(totals.p99)}`, totals.p99 <= 5, 'p99 ≤ 5 ms');
    } finally {
      api.close();
    }

    // CSV export of every row, streamed: rows/s and the server's memory meanwhile
    const ex = await exportAll(server.base, token, server.child.pid);
    console.log(
      `  CSV export: ${ex.rows.toLocaleString('en')} rows, ${(ex.bytes / 1e6).toFixed(0)} MB in ${ex.seconds.toFixed(1)} s = ${Math.round(ex.rows / ex.seconds).toLocaleString('en')} rows/s; server RSS ${ex.rssBefore.toFixed(0)} MB before, ${ex.rssPeak.toFixed(0)} MB at most while streaming`,
    );
    verdict(
      `CSV export [${label}]`,
      `${Math.round(ex.rows / ex.seconds).toLocaleString('en')} rows/s, peak RSS ${ex.rssPeak.toFixed(0)} MB (+${(ex.rssPeak - ex.rssBefore).toFixed(0)} MB)`,
      ex.rows === count && ex.rssPeak - ex.rssBefore < 200,
      `every row (${count.toLocaleString('en')}); RSS growth < 200 MB`,
    );

    // CSV import: a dry run, then for real (all or nothing)
    const dry = await importCsv(server.base, token, importRows, true);
    const imp = await importCsv(server.base, token, importRows, false);
    const created = imp.data?.created ?? 0;
    console.log(
      `  CSV import of ${importRows.toLocaleString('en')} rows (${(imp.bytes / 1e6).toFixed(1)} MB): dry run ${dry.seconds.toFixed(1)} s (HTTP ${dry.status}); import ${imp.seconds.toFixed(1)} s = ${Math.round(created / imp.seconds).toLocaleString('en')} rows/s (HTTP ${imp.status}, created ${created})`,
    );
    if (imp.status !== 200) console.log(`  import answered: ${imp.text.slice(0, 300)}`);
    verdict(
      `CSV import [${label}]`,
      `${Math.round(created / imp.seconds).toLocaleString('en')} rows/s`,
      created === importRows && created / imp.seconds >= 5000,
      `all ${importRows.toLocaleString('en')} rows, ≥ 5,000 rows/s`,
    );
  } finally {
    await server?.stop({ keepData: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
    forget();
    if (dbName) await dropDatabase(dbName);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv;
  const quick = argv.includes('--quick');
  const valueOf = (flag) => (argv.indexOf(flag) > 0 ? argv[argv.indexOf(flag) + 1] : undefined);
  const only = valueOf('--only');
  if (only !== undefined && only !== 'import' && only !== 'contains') throw new Error(`--only: import or contains run alone (got ${only})`);
  const count = valueOf('--count') ? Number(valueOf('--count')) : only === 'import' || quick ? 100_000 : 1_000_000;
  const dialects = argv.includes('--pg') ? ['postgres'] : argv.includes('--sqlite') ? ['sqlite'] : ['sqlite', 'postgres'];
  const entries = argv.flatMap((a, k) => (argv[k - 1] === '--entry' ? [path.resolve(a)] : []));
  for (const dialect of dialects) {
    if (argv.includes('--drop')) await dropSeeded({ dialect, count });
    else if (only === 'contains')
      await benchContains({
        dialect,
        count,
        rounds: Number(valueOf('--rounds') ?? 3),
        entries: entries.length ? entries : [await compiledServer()],
        keep: argv.includes('--keep'),
      });
    else if (only)
      await benchImport({
        dialect,
        count,
        importRows: Number(valueOf('--rows') ?? (quick ? 20_000 : 100_000)),
        rounds: Math.min(10, Number(valueOf('--rounds') ?? 3)),
        entries: entries.length ? entries : [await compiledServer()],
      });
    else await benchDirectory({ dialect, count, quick });
  }
  printVerdicts();
}
