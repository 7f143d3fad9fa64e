/**
 * Runs a suite against SQLite and PostgreSQL (issue 2, A-48): each suite gets a fresh SQLite
 * file and a fresh PostgreSQL schema, migrated, bootstrapped, with a fake clock.
 * PostgreSQL comes from TEST_DATABASE_URL (default the machine's local server); when it is
 * not reachable the suite fails and says how to get one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp } from '../app.js';
import { createContext, type AppContext } from '../composition/context.js';
import { FakeClock } from '../platform/clock.js';
import { loadConfig } from '../platform/config.js';
import { openDb, type DbHandle } from '../platform/db.js';
import { migrateToLatest } from '../platform/migrations/index.js';
import { bootstrap, ensureDefaultClients } from '../composition/bootstrap.js';
import { randomString } from '../platform/crypto.js';
import { ADMIN_PASSWORD, solveCaptcha, tokenFor } from './kit.js';

// Suites import these from here too.
export { ADMIN_PASSWORD, solveCaptcha };
export const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface Harness {
  dialect: 'sqlite' | 'postgres';
  app: FastifyInstance;
  ctx: AppContext;
  clock: FakeClock;
  dbh: DbHandle;
  /** signs in (default: the first administrator) and returns the bearer token: kit.ts tokenFor */
  login(username?: string, password?: string, realmId?: string): Promise<string>;
  /** a fresh image captcha and its answer: kit.ts solveCaptcha */
  solveCaptcha(realmId?: string): Promise<{ captcha: string; serialNo: string }>;
}

export interface DbTarget {
  dialect: 'sqlite' | 'postgres';
  open(): Promise<{ dbh: DbHandle; dispose(): Promise<void>; url: string; schema?: string }>;
}

async function openPg(): Promise<{ dbh: DbHandle; dispose(): Promise<void>; url: string; schema: string }> {
  const schema = `t_${randomString(12).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${PG_URL} (${(err as Error).message}). Every SQL suite runs on SQLite and PostgreSQL: ` +
        `start PostgreSQL (Debian: apt-get install postgresql && pg_ctlcluster 15 main start) or set TEST_DATABASE_URL.`,
    );
  }
  await admin.query(`create schema ${schema}`);
  const dbh = openDb(PG_URL, { schema, poolMax: 5 });
  return {
    dbh,
    url: PG_URL,
    schema,
    async dispose() {
      await dbh.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

function openSqliteTemp() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-test-'));
  const url = `sqlite:${path.join(dir, 'test.sqlite')}`;
  const dbh = openDb(url);
  return Promise.resolve({
    dbh,
    url,
    async dispose() {
      await dbh.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  });
}

export const DB_TARGETS: DbTarget[] = [
  { dialect: 'sqlite', open: openSqliteTemp },
  { dialect: 'postgres', open: openPg },
];

/** A test configuration: temp data dir, fixed master key, no outbound anything. */
export function testConfig(extra: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-data-'));
  return loadConfig({ DATA_DIR: dataDir, MASTER_KEY: '11'.repeat(32), PUBLIC_URL: 'http://umbo.test', LOG_LEVEL: 'silent', ...extra });
}

/** `logDestination`: the app logs (at the configuration's LOG_LEVEL) into it, for tests that read the log. */
export async function createHarness(
  target: DbTarget,
  configEnv: Record<string, string> = {},
  opts: { logDestination?: DestinationStream } = {},
): Promise<Harness & { dispose(): Promise<void> }> {
  const opened = await target.open();
  const clock = new FakeClock(Date.now());
  await migrateToLatest(opened.dbh.db, opened.dbh.schema);
  await bootstrap(opened.dbh.db, clock, ADMIN_PASSWORD);
  const config = testConfig(configEnv);
  const ctx = createContext(config, opened.dbh, clock, { logDestination: opts.logDestination });
  await ensureDefaultClients(ctx);
  const app = await buildApp(ctx, { logger: Boolean(opts.logDestination) });
  await app.ready();
  const harness: Harness & { dispose(): Promise<void> } = {
    dialect: target.dialect,
    app,
    ctx,
    clock,
    dbh: opened.dbh,
    solveCaptcha: (realmId = 'master') => solveCaptcha(ctx, realmId),
    login: (username = 'admin', password = ADMIN_PASSWORD, realmId?: string) => tokenFor(harness, { username, password, realmId }),
    async dispose() {
      await app.close();
      await opened.dispose();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/**
 * `describe` once per database. `h()` returns the suite's harness inside tests.
 * Suites share one harness per database; tests must not depend on each other's rows.
 */
export function describeBothDbs(name: string, fn: (h: () => Harness) => void, configEnv: Record<string, string> = {}): void {
  for (const target of DB_TARGETS) {
    describe(`${name} [${target.dialect}]`, () => {
      let harness: (Harness & { dispose(): Promise<void> }) | undefined;
      beforeAll(async () => {
        harness = await createHarness(target, configEnv);
      });
      afterAll(async () => {
        await harness?.dispose();
      });
      fn(() => {
        if (!harness) throw new Error('harness not ready');
        return harness;
      });
    });
  }
}
