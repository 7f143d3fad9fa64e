/**
 * Seeds person accounts for the directory bench (issue 11): `count` accounts in one realm,
 * written straight into the database with bulk multi-row INSERTs in big transactions, while
 * no server runs on it. Realistic rows, the same on every run (a seeded generator): user
 * names from first and last names of several languages, emails at common providers, E.164
 * phones of several countries, registration times spread over six years, some accounts
 * without email or phone, a few disabled, unactivated or forced to change their password,
 * and one real argon2id hash shared by most (what a real table carries, row size included).
 *
 * `sample(i)` regenerates the i-th row without the database, so the bench draws its search
 * terms from rows that exist.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { root } from './lib.mjs';

const FIRST = (
  'wei fang jing lei min hui yan jun xin ling hao yu chen qiang li na ming tao james mary john linda david sarah michael emma daniel ' +
  'olivia thomas anna lucas sofia maria jose carlos lucia pablo elena javier carmen hans greta jonas lena felix marie hiroshi yuki ' +
  'haruto sakura kenji aoi mohammed fatima omar layla ahmed noor priya arjun rahul ananya ivan olga pierre camille giulia marco joao ' +
  'ana minjun jiwoo'
).split(' ');
const LAST = (
  'wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he lin smith johnson williams brown jones miller davis wilson ' +
  'taylor clark garcia martinez lopez gonzalez rodriguez fernandez muller schmidt schneider fischer weber meyer sato suzuki takahashi ' +
  'tanaka watanabe ito khan ali hassan haddad sharma patel singh kumar ivanov petrova dubois martin rossi russo silva santos kim park ' +
  'nguyen tran'
).split(' ');
const MAIL = [
  ['gmail.com', 24],
  ['qq.com', 18],
  ['163.com', 12],
  ['outlook.com', 9],
  ['126.com', 6],
  ['hotmail.com', 6],
  ['yahoo.com', 5],
  ['icloud.com', 5],
  ['sina.com', 3],
  ['foxmail.com', 3],
  ['gmx.de', 2],
  ['web.de', 2],
  ['yahoo.co.jp', 2],
  ['naver.com', 2],
  ['robotics-lab.example', 1],
];
/** [calling code, weight, national digits, leading digits] */
const PHONES = [
  ['86', 70, 11, ['130', '131', '132', '133', '135', '136', '137', '138', '139', '150', '151', '152', '158', '159', '166', '177', '180', '186', '188', '199']],
  ['1', 8, 10, ['212', '310', '415', '617', '646', '702', '917']],
  ['49', 4, 11, ['151', '160', '170', '176']],
  ['44', 3, 10, ['74', '75', '77', '78', '79']],
  ['81', 4, 10, ['70', '80', '90']],
  ['852', 2, 8, ['5', '6', '9']],
  ['65', 2, 8, ['8', '9']],
  ['91', 4, 10, ['70', '80', '90', '98']],
  ['33', 3, 9, ['6', '7']],
];
const YEAR_MS = 365.25 * 24 * 3600 * 1000;
const SPAN_MS = 6 * YEAR_MS;

/** mulberry32: a small, fast, seeded generator (the same rows on every run) */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const weighted = (list) => {
  const total = list.reduce((a, x) => a + x[1], 0);
  return (u) => {
    let x = u * total;
    for (const item of list) if ((x -= item[1]) < 0) return item;
    return list[list.length - 1];
  };
};
const pickMail = weighted(MAIL);
const pickPhone = weighted(PHONES);
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

/**
 * Row `i` of `count`, registered up to `now`: a pure function of (i, count, now), so the bench
 * can name rows that exist. Every user name, email and phone carries i, so all are unique.
 */
export function sample(i, count, now) {
  const r = rng(0x5eed0000 ^ Math.imul(i + 1, 0x9e3779b1));
  const first = FIRST[Math.floor(r() * FIRST.length)];
  const last = LAST[Math.floor(r() * LAST.length)];
  const shape = r();
  const base = shape < 0.35 ? `${first}.${last}` : shape < 0.55 ? `${first}_${last}` : shape < 0.8 ? `${first}${last}` : `${last}${first[0]}`;
  const n = String(i);
  let username = `${base.slice(0, 24 - n.length)}${n}`;
  if (r() < 0.3) username = username[0].toUpperCase() + username.slice(1);
  let id = '';
  for (let k = 0; k < 24; k++) id += ALNUM[Math.floor(r() * 36)];
  for (let k = 0; k < 8; k++) id += HEX[Math.floor(r() * 16)];
  const email = r() < 0.85 ? `${r() < 0.5 ? `${first}.${last}` : `${first[0]}${last}`}${n}@${pickMail(r())[0]}` : null;
  let phone = null;
  let area = '';
  if (r() < 0.75) {
    const [code, , digits, leads] = pickPhone(r());
    const lead = leads[Math.floor(r() * leads.length)];
    // i spread over the free digits by a bijection (multiplying by a unit modulo 10^k): unique, not sequential
    const k = digits - lead.length;
    const mod = 10 ** k;
    const rest = String((i * 7_777_777 + 12_345) % mod).padStart(k, '0');
    phone = `+${code}${lead}${rest}`;
    area = code;
  }
  // registration times rise with i (newer rows, later times), denser towards today
  const createdAt = Math.floor(now - SPAN_MS + SPAN_MS * Math.sqrt((i + r()) / count));
  const lastLoginAt = r() < 0.7 ? Math.floor(createdAt + r() * (now - createdAt)) : null;
  return {
    id,
    username,
    username_norm: username.toLowerCase(),
    email,
    email_norm: email && email.toLowerCase(),
    phone,
    disabled: r() < 0.02 ? 1 : 0,
    activated: r() < 0.97 ? 1 : 0,
    force_password: r() < 0.005 ? 1 : 0,
    regist_area: area,
    avatar: r() < 0.05 ? `https://cdn.example.test/avatars/${id}.png` : '',
    created_at: createdAt,
    updated_at: Math.floor(createdAt + r() * (now - createdAt) * 0.2),
    last_login_at: lastLoginAt,
    last_login_area: lastLoginAt ? area : '',
    hasPassword: r() < 0.95,
  };
}

/** The row as the accounts table takes it, for the columns the table has. */
function fullRow(s, realmId, passwordHash) {
  return {
    ...s,
    realm_id: realmId,
    kind: 'person',
    owner_id: null,
    password_hash: s.hasPassword ? passwordHash : null,
  };
}

/** Columns of `accounts` this seeder fills; any other column must have a default or allow null. */
function columnsOf(tableColumns) {
  const known = [
    'id',
    'realm_id',
    'kind',
    'owner_id',
    'username',
    'username_norm',
    'email',
    'email_norm',
    'phone',
    'password_hash',
    'avatar',
    'disabled',
    'activated',
    'force_password',
    'regist_area',
    'last_login_at',
    'last_login_area',
    'created_at',
    'updated_at',
  ];
  for (const c of tableColumns)
    if (!known.includes(c.name) && c.required) throw new Error(`accounts.${c.name} is required and unknown to scripts/bench/seed.mjs`);
  return known.filter((k) => tableColumns.some((c) => c.name === k));
}

function progress(label, done, count, t0) {
  const s = (performance.now() - t0) / 1000;
  process.stdout.write(
    `\r  seeding ${label}: ${done.toLocaleString('en')} / ${count.toLocaleString('en')} (${Math.round(done / s).toLocaleString('en')} rows/s)   `,
  );
}

/** migration 0037's recount (the bench runs without the server's TypeScript) */
const TALLY_RECOUNT =
  'insert into account_tallies (realm_id, kind, disabled, activated, n) select realm_id, kind, disabled, activated, count(*) from accounts group by realm_id, kind, disabled, activated';

function recountSqlite(db) {
  db.exec('delete from account_tallies');
  db.exec(TALLY_RECOUNT);
}

/** SQLite: the server's database file, the server stopped. */
export function seedSqlite(file, { realmId, count, now, passwordHash, batch = 500, perTransaction = 50_000 }) {
  const Database = createRequire(path.join(root, 'apps/server/package.json'))('better-sqlite3');
  const db = new Database(file);
  const t0 = performance.now();
  try {
    db.pragma('journal_mode = WAL');
    // A bench database: losing it in a crash costs a re-run, so no fsync per transaction.
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    db.pragma('temp_store = MEMORY');
    const tableColumns = db
      .prepare('select name, "notnull" as nn, dflt_value as d from pragma_table_info(?)')
      .all('accounts')
      .map((c) => ({ name: c.name, required: c.nn === 1 && c.d === null }));
    const cols = columnsOf(tableColumns);
    // Indexes are built once after the load, from the database's own definitions (the
    // migrations'): sorting once is several times faster than a million random inserts into each.
    const indexes = db.prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = 'accounts' and sql is not null").all();
    for (const ix of indexes) db.exec(`drop index ${ix.name}`);
    // The tallies' row triggers too (migration 0037): counted once after the load, as PostgreSQL's
    // load below is. Only those: the others fill the "contains" search's trigram table (0035).
    const triggers = db.prepare("select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'accounts' and name like 'account_tallies_%'").all();
    for (const tr of triggers) db.exec(`drop trigger ${tr.name}`);
    const one = `(${cols.map(() => '?').join(', ')})`;
    const stmtFor = (n) => db.prepare(`insert into accounts (${cols.join(', ')}) values ${Array.from({ length: n }, () => one).join(', ')}`);
    const full = stmtFor(batch);
    const insertRange = db.transaction((from, to) => {
      for (let i = from; i < to; i += batch) {
        const n = Math.min(batch, to - i);
        const values = [];
        for (let j = i; j < i + n; j++) {
          const row = fullRow(sample(j, count, now), realmId, passwordHash);
          for (const c of cols) values.push(row[c]);
        }
        (n === batch ? full : stmtFor(n)).run(values);
      }
    });
    for (let i = 0; i < count; i += perTransaction) {
      insertRange(i, Math.min(count, i + perTransaction));
      progress('SQLite', Math.min(count, i + perTransaction), count, t0);
    }
    const t1 = performance.now();
    for (const ix of indexes) db.exec(ix.sql);
    for (const tr of triggers) db.exec(tr.sql);
    recountSqlite(db);
    process.stdout.write(`\n  ${indexes.length} indexes rebuilt in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    // BENCH_SQLITE_ANALYZE=1: planner statistics as `PRAGMA optimize` at a connection's opening
    // makes them (the server does not, yet), to compare the plans with and without
    if (process.env.BENCH_SQLITE_ANALYZE === '1') db.pragma('optimize=0x10002');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  const seconds = (performance.now() - t0) / 1000;
  process.stdout.write('\n');
  return { seconds, rowsPerSec: count / seconds };
}

/** PostgreSQL: the bench's own database, the server stopped. */
export async function seedPostgres(url, { realmId, count, now, passwordHash, batch = 1000, perTransaction = 100_000 }) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const t0 = performance.now();
  try {
    await client.query('set synchronous_commit = off');
    // The rows are known to be consistent (their realm exists): skip the per-row foreign-key
    // triggers, as a restore does (needs a superuser; without one the load is only slower).
    await client.query('set session_replication_role = replica').catch(() => {});
    const { rows: info } = await client.query(
      `select column_name as name, is_nullable = 'NO' and column_default is null as required, data_type as type
         from information_schema.columns where table_schema = current_schema() and table_name = 'accounts'`,
    );
    const cols = columnsOf(info);
    // Indexes other than the primary key are built once after the load, from their own
    // definitions (the migrations'): faster than a million random inserts into each.
    const { rows: indexes } = await client.query(
      `select i.indexname as name, i.indexdef as sql from pg_indexes i
         where i.schemaname = current_schema() and i.tablename = 'accounts'
           and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    );
    for (const ix of indexes) await client.query(`drop index ${ix.name}`);
    // One multi-row INSERT, prepared once (named): planning a statement of thousands of
    // parameters anew for every batch costs more than inserting its rows.
    const text = (n) =>
      `insert into accounts (${cols.join(', ')}) values ${Array.from({ length: n }, (_, r) => `(${cols.map((_, k) => `$${r * cols.length + k + 1}`).join(', ')})`).join(', ')}`;
    const full = text(batch);
    for (let i = 0; i < count; i += perTransaction) {
      const to = Math.min(count, i + perTransaction);
      await client.query('begin');
      for (let j = i; j < to; j += batch) {
        const n = Math.min(batch, to - j);
        const values = [];
        for (let k = j; k < j + n; k++) {
          const row = fullRow(sample(k, count, now), realmId, passwordHash);
          for (const c of cols) values.push(row[c]);
        }
        await client.query(n === batch ? { name: 'seed-accounts', text: full, values } : { text: text(n), values });
      }
      await client.query('commit');
      progress('PostgreSQL', to, count, t0);
    }
    const t1 = performance.now();
    await client.query("set maintenance_work_mem = '256MB'");
    for (const ix of indexes) await client.query(ix.sql);
    process.stdout.write(`\n  ${indexes.length} indexes rebuilt in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    // The account tallies' triggers (migration 0037) did not fire under the replica role: recount
    // them from the rows, as after any load that bypasses triggers.
    await client.query(`with gone as (delete from account_tallies returning n) ${TALLY_RECOUNT}`);
    // What autovacuum would do a minute later (PostgreSQL ≥ 13 vacuums after inserts too): the
    // planner's statistics of the new rows, and the visibility map that lets an index-only scan
    // skip the table (without it every index entry of a count costs a table read).
    await client.query('vacuum (analyze) accounts');
  } finally {
    await client.end();
  }
  const seconds = (performance.now() - t0) / 1000;
  process.stdout.write('\n');
  return { seconds, rowsPerSec: count / seconds };
}
