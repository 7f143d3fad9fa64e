/**
 * The "contains" search part of the directory bench (issue 11: p99 ≤ 100 ms at 1,000,000
 * accounts) on its own, old and new builds alternating on copies of one seeded database:
 *
 *   node scripts/bench/directory.mjs --only contains [--sqlite|--pg] [--count N] [--rounds N]
 *       [--keep] [--entry old/main.js --entry new/main.js]
 *
 * The seeded database (`umbo_bench_contains_<count>` on PostgreSQL, a data directory in the
 * temp directory on SQLite) is migrated by the first `--entry` (the oldest build: a newer one
 * migrates its copy further, and an older one refuses a database migrated past it). Seeding a
 * million rows takes minutes: `--keep` keeps it for the next run (which reuses it), `--drop`
 * only drops a kept one. Each build gets a copy of it (PostgreSQL: CREATE DATABASE … TEMPLATE,
 * a file copy), so its start shows what its migrations cost on a full table. Rounds alternate
 * between the builds (load from other work falls on both); medians per build follow.
 */
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { REALM } from './directory-import.mjs';
import { sample, seedPostgres, seedSqlite } from './seed.mjs';
import { onMaintenance, pgBase } from './pg.mjs';
import { adminToken, call, fmt, onInterrupt, root, sequential, startServer, verdict } from './lib.mjs';

/** A deterministic stream of indexes into the seeded rows. */
export function picker(count, seed = 7) {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % count;
  };
}

/** Search terms drawn from rows that exist. */
export function terms(count, now, n, field) {
  const pick = picker(count, field.length * 97);
  const out = [];
  while (out.length < n) {
    const s = sample(pick(), count, now);
    const len = 3 + (pick() % 6);
    if (field === 'username') out.push(s.username_norm.slice(0, len));
    else if (field === 'email' && s.email_norm) out.push(s.email_norm.slice(0, len + 2));
    else if (field === 'id') out.push(s.id.slice(0, len));
    else if (field === 'phone' && s.phone) {
      // typed as people type them: a Chinese mobile without +86, any other number with its +code
      out.push(s.phone.startsWith('+86') ? s.phone.slice(3, 3 + len + 1) : s.phone.slice(0, len + 3));
    } else if (field === 'contains') {
      const from = s.username_norm.length > 6 ? 1 + (pick() % (s.username_norm.length - 5)) : 0;
      out.push(s.username_norm.slice(from, from + 4));
    }
  }
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dropPg = (name) => onMaintenance((c) => c.query(`drop database if exists ${name} with (force)`));

/** The seeded database, made (by `entry`) unless kept from an earlier run; answers where it is. */
async function seeded({ dialect, count, entry }) {
  const name = `umbo_bench_contains_${count}`;
  const dir = path.join(os.tmpdir(), `umbo-bench-contains-${dialect}-${count}`);
  const marker = path.join(dir, 'seeded');
  const exists =
    dialect === 'postgres'
      ? (await onMaintenance((c) => c.query('select 1 from pg_database where datname = $1', [name]))).rowCount > 0 && fs.existsSync(marker)
      : fs.existsSync(marker);
  const where = { name, dir, reused: exists };
  if (exists) return where;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const databaseUrl = dialect === 'postgres' ? pgBase(name) : undefined;
  if (databaseUrl) await onMaintenance(async (c) => (await c.query(`drop database if exists ${name} with (force)`), c.query(`create database ${name}`)));
  const server = await startServer({ databaseUrl, dataDir: dir, entry });
  try {
    const token = await adminToken(server.base);
    const made = await call(server.base, 'POST', '/api/users/realms', {
      token,
      body: { realmId: REALM, domain: 'bench.example.com', description: 'bench realm' },
    });
    if (made.status !== 200) throw new Error(`creating realm ${REALM}: ${made.status} ${made.text.slice(0, 300)}`);
  } finally {
    await server.stop({ keepData: true });
  }
  const { hash } = createRequire(path.join(root, 'apps/server/package.json'))('@node-rs/argon2');
  const passwordHash = await hash('Seeded-Passw0rd!', { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  const now = Date.now();
  const s =
    dialect === 'sqlite'
      ? seedSqlite(path.join(dir, 'umbo.sqlite'), { realmId: REALM, count, now, passwordHash })
      : await seedPostgres(databaseUrl, { realmId: REALM, count, now, passwordHash });
  console.log(`  seeded in ${s.seconds.toFixed(1)} s`);
  fs.writeFileSync(marker, String(now));
  return where;
}

/** A copy of the seeded database for one build, and its server (its start runs its migrations). */
async function copyFor({ dialect, base, index, entry }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-contains-copy-'));
  const name = `${base.name}_e${index}`;
  const forget = onInterrupt(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dialect === 'postgres') await dropPg(name);
  });
  const cleanup = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dialect === 'postgres') await dropPg(name);
    forget();
  };
  try {
    if (dialect === 'postgres')
      await onMaintenance(
        async (c) => (await c.query(`drop database if exists ${name} with (force)`), c.query(`create database ${name} template ${base.name}`)),
      );
    else for (const f of fs.readdirSync(base.dir)) fs.copyFileSync(path.join(base.dir, f), path.join(dataDir, f));
    const t0 = performance.now();
    const server = await startServer({ databaseUrl: dialect === 'postgres' ? pgBase(name) : undefined, dataDir, entry });
    const startSeconds = (performance.now() - t0) / 1000;
    return { server, token: await adminToken(server.base), startSeconds, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** A keep-alive JSON GET (one socket, reused). */
function getter(base, token) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (urlPath) =>
    new Promise((resolve, reject) => {
      const req = http.get(new URL(urlPath, base), { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')).data) : reject(new Error(`GET ${urlPath}: ${res.statusCode}`)),
        );
      });
      req.on('error', reject);
    });
  return { get, close: () => agent.destroy() };
}

export async function benchContains({ dialect, count = 1_000_000, rounds = 3, entries = [undefined], keep = false }) {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const nameOf = (e, i) => (e ? `${path.basename(path.dirname(e))}/${path.basename(e)}` : 'main.ts') + (entries.length > 1 ? `@${i + 1}` : '');
  console.log(`\ncontains search at ${count.toLocaleString('en')} accounts [${label}], ${rounds} round(s)`);
  const base = await seeded({ dialect, count, entry: entries[0] });
  if (base.reused) console.log(`  reusing the seeded database kept by an earlier run (${dialect === 'postgres' ? base.name : base.dir})`);
  const umbos = [];
  try {
    for (const [index, entry] of entries.entries()) {
      umbos.push(await copyFor({ dialect, base, index, entry }));
      console.log(`  ${nameOf(entry, index)} started (migrations included) in ${umbos[index].startSeconds.toFixed(1)} s`);
    }
    const qs = terms(count, 0, 50, 'contains');
    const figures = entries.map(() => ({ username: { p50: [], p99: [] }, any: { p50: [], p99: [] } }));
    for (let round = 0; round < rounds; round++) {
      for (const [i, u] of umbos.entries()) {
        const api = getter(u.server.base, u.token);
        try {
          const list = (q, field) => api.get(`/api/users/realms/${REALM}/accounts?q=${encodeURIComponent(q)}&field=${field}&match=contains&limit=20`);
          for (const q of qs.slice(0, 10)) await list(q, 'any'); // pages and plans loaded
          const out = [];
          for (const field of ['username', 'any']) {
            const st = await sequential((k) => list(qs[k], field), qs.length, { maxSeconds: 30 });
            figures[i][field].p50.push(st.p50);
            figures[i][field].p99.push(st.p99);
            out.push(`${field} p50 ${fmt(st.p50)} p99 ${fmt(st.p99)}`);
          }
          console.log(`  round ${round + 1} ${nameOf(entries[i], i).padEnd(24)} ${out.join(';  ')}`);
        } finally {
          api.close();
        }
      }
    }
    for (const [i, f] of figures.entries()) {
      const p99 = Math.max(median(f.username.p99), median(f.any.p99));
      console.log(
        `  median ${nameOf(entries[i], i)}: username p50 ${fmt(median(f.username.p50))} p99 ${fmt(median(f.username.p99))}; any p50 ${fmt(median(f.any.p50))} p99 ${fmt(median(f.any.p99))}`,
      );
      verdict(`contains search ${nameOf(entries[i], i)} [${label}]`, `p99 ${fmt(p99)} (medians of ${rounds})`, p99 <= 100, 'p99 ≤ 100 ms');
    }
  } finally {
    for (const u of umbos) {
      await u.server.stop({ keepData: true });
      await u.cleanup();
    }
    if (!keep) await dropSeeded({ dialect, count });
  }
}

/** Drops the seeded database kept by `--keep`. */
export async function dropSeeded({ dialect, count }) {
  if (dialect === 'postgres') await dropPg(`umbo_bench_contains_${count}`);
  fs.rmSync(path.join(os.tmpdir(), `umbo-bench-contains-${dialect}-${count}`), { recursive: true, force: true });
}
