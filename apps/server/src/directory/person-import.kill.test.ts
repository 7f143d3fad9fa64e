/**
 * A-45 for the CSV import (issue 11): a server killed with SIGKILL in the middle of a large
 * import leaves nothing of it. A real server process (main.ts under tsx, as `npm start` runs
 * it) on its own data directory — SQLite — and on its own PostgreSQL schema: the import is
 * started, the process is killed once the insert is under way (SQLite: the write-ahead log
 * grows; PostgreSQL: the transaction holds its lock on `accounts`), the server is started
 * again on the same data, and the realm holds exactly the accounts it held before.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_URL } from '../test/harness.js';
import { serverProcesses, sleep } from '../test/processes.js';

const PASSWORD = 'Kill-Test-Admin-5512';
const ROWS = 150_000;

const procs = serverProcesses();
const startServer = (env: Record<string, string>) => procs.start(env);

async function adminToken(base: string): Promise<string> {
  const res = await fetch(`${base}/api/users/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD, realm_id: 'master' }),
  });
  const body = (await res.json()) as { data?: { token: string } };
  if (!body.data) throw new Error(`sign-in: ${JSON.stringify(body)}`);
  return body.data.token;
}

async function personTotal(base: string, token: string): Promise<number> {
  const res = await fetch(`${base}/api/users/realms/master/accounts?limit=1`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: { total: number } }).data.total;
}

async function killDuringImport(env: Record<string, string>, underWay: () => Promise<boolean>) {
  const first = await startServer(env);
  const token = await adminToken(first.base);
  const before = await personTotal(first.base, token);
  const csv = ['userName,email,phone', ...Array.from({ length: ROWS }, (_, i) => `kill_${i},kill_${i}@example.test,`)].join('\n');
  let finished = false;
  void fetch(`${first.base}/api/users/realms/master/accounts/import`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', authorization: `Bearer ${token}` },
    body: csv,
  })
    .then(() => (finished = true))
    .catch(() => undefined);
  let seen = false;
  for (const end = Date.now() + 60_000; Date.now() < end && !finished; await sleep(10)) {
    if (await underWay()) {
      seen = true;
      break;
    }
  }
  first.child.kill('SIGKILL');
  await first.exited;
  expect(finished, 'the import ended before the kill: make it larger').toBe(false);
  expect(seen, 'the insert was never seen under way').toBe(true);

  const second = await startServer(env);
  const after = await personTotal(second.base, await adminToken(second.base));
  second.child.kill('SIGTERM');
  await second.exited;
  return { before, after };
}

describe('A-45 person import killed half way (kill -9)', () => {
  afterAll(async () => {
    await procs.stopAll();
  });

  const baseEnv = () => {
    const dir = procs.tmpDir('umbo-kill-');
    return { DATA_DIR: dir, ADMIN_PASSWORD: PASSWORD, MASTER_CAPTCHA_POLICY: 'after_failures', MASTER_KEY: '22'.repeat(32) };
  };

  it('[sqlite] nothing of the import remains after a restart', async () => {
    const env = baseEnv();
    const wal = path.join(env.DATA_DIR, 'umbo.sqlite-wal');
    let start = -1;
    const { before, after } = await killDuringImport(env, async () => {
      const size = fs.existsSync(wal) ? fs.statSync(wal).size : 0;
      if (start < 0) start = size;
      // Rows spill from the page cache into the log long before the commit: a few MB means the insert runs.
      return size > start + 4 * 1024 * 1024;
    });
    expect(after).toBe(before);
  }, 180_000);

  it('[postgres] nothing of the import remains after a restart', async () => {
    const { schema, url } = await procs.pgSchemaForProcess('t_kill_');
    // this suite's own look at the schema: the import's lock, then what is left of it
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const { before, after } = await killDuringImport({ ...baseEnv(), DATABASE_URL: url }, async () => {
        // The import's transaction holds a row-exclusive lock on this schema's accounts from its first insert.
        const { rowCount } = await admin.query(
          `select 1 from pg_locks l join pg_class c on c.oid = l.relation join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = $1 and c.relname = 'accounts' and l.mode = 'RowExclusiveLock'`,
          [schema],
        );
        return (rowCount ?? 0) > 0;
      });
      expect(after).toBe(before);
      const { rows } = await admin.query(`select count(*)::int as n from ${schema}.accounts where username like 'kill_%'`);
      expect(rows[0].n).toBe(0);
    } finally {
      await admin.end();
    }
  }, 180_000);
});
