/**
 * PostgreSQL for the bench: a database of its own per run (`umbo_bench…`), created and dropped
 * here, on the server of BENCH_PG_URL (default TEST_DATABASE_URL, else the machine's local
 * one). The `test` database that the tests use is never touched.
 */
import pg from 'pg';
import { onInterrupt } from './lib.mjs';

const SERVER = process.env.BENCH_PG_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** The URL of database `name` on the bench's PostgreSQL server. */
export function pgBase(name) {
  const u = new URL(SERVER);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs `work` on a connection to the server's maintenance database (creating and dropping databases). */
export async function onMaintenance(work) {
  const client = new pg.Client({ connectionString: pgBase('postgres'), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const safe = (name) => {
  if (!/^umbo_bench\w*$/.test(name)) throw new Error(`bench databases are named umbo_bench…, not ${name}`);
  return name;
};

export async function pgAvailable() {
  try {
    await onMaintenance((c) => c.query('select 1'));
    return true;
  } catch {
    return false;
  }
}

const created = new Map();

/** A fresh database `name` (dropped first if a previous run left it); dropped too if the bench is interrupted. */
export async function createDatabase(name) {
  await onMaintenance(async (c) => {
    await c.query(`drop database if exists ${safe(name)} with (force)`);
    await c.query(`create database ${safe(name)}`);
  });
  created.set(
    name,
    onInterrupt(() => dropDatabase(name)),
  );
}

export async function dropDatabase(name) {
  created.get(name)?.();
  created.delete(name);
  await onMaintenance((c) => c.query(`drop database if exists ${safe(name)} with (force)`));
}
