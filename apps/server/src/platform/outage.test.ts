/**
 * with the database away, sign-in answers 503 with a generic body and issues nothing,
 * readiness fails, and the service recovers without a restart when the database returns.
 * SQLite: another process holds the write lock. PostgreSQL: a test-controlled TCP proxy cuts
 * every connection.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { createContext, type AppContext } from '../composition/context.js';
import { bootstrap } from '../composition/bootstrap.js';
import { PG_URL, testConfig } from '../test/harness.js';
import { ADMIN, as, solveCaptcha, type Answer } from '../test/kit.js';
import { FakeClock } from './clock.js';
import { openDb, type DbHandle } from './db.js';
import { migrateToLatest } from './migrations/index.js';

/** The app on a database this test breaks; not a harness: each database is opened its own way here. */
interface Product {
  app: FastifyInstance;
  ctx: AppContext;
  /** the configuration's temp data directory, removed with the product */
  dataDir: string;
}

async function appOn(dbh: DbHandle): Promise<Product> {
  const clock = new FakeClock(Date.now());
  await migrateToLatest(dbh.db, dbh.schema);
  await bootstrap(dbh.db, clock, ADMIN.password);
  const config = testConfig();
  const ctx = createContext(config, dbh, clock);
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  return { app, ctx, dataDir: config.dataDir };
}

/** The captcha is solved while the database is still there (it is stored there too). */
const login = async (p: Product, captcha?: { captcha: string; serialNo: string }) =>
  as(p).post('/api/users/auth/login', { username: ADMIN.username, password: ADMIN.password, ...(captcha ?? (await solveCaptcha(p.ctx))) });
const ready = async (p: Product) => (await as(p).get('/readyz')).status;

function expectOutage(res: Answer) {
  expect(res).toEqual({ status: 503, body: { result: 'fail', code: 1201, errno: 1201, error: 'database_error', msg: 'Database operation error' } });
  expect(res.text).not.toMatch(/SQLITE|ECONN|terminated|at \w+ \(/);
}

describe('A-44 database outage [sqlite]', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-outage-'));
  const file = path.join(dir, 'db.sqlite');
  let dbh: DbHandle;
  let p: Product;
  beforeAll(async () => {
    // shared: a server holds its file for itself (platform/db.ts), so a lock taken by another
    // process is how this test makes the database stop answering
    dbh = openDb(`sqlite:${file}`, { busyTimeoutMs: 100, shared: true });
    p = await appOn(dbh);
  });
  afterAll(async () => {
    await p.app.close();
    await dbh.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(p.dataDir, { recursive: true, force: true });
  });

  it('answers 503, issues no session, fails readiness, then recovers', async () => {
    expect((await login(p)).status).toBe(200);
    const before = await dbh.db.selectFrom('sessions').select('id').execute();
    const captcha = await solveCaptcha(p.ctx);
    const locker = new SQLite(file);
    locker.exec('BEGIN EXCLUSIVE');
    try {
      expectOutage(await login(p, captcha));
      expect(await ready(p)).toBe(503);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    const after = await dbh.db.selectFrom('sessions').select('id').execute();
    expect(after.length).toBe(before.length);
    expect(await ready(p)).toBe(200);
    expect((await login(p)).status).toBe(200);
  });
});

/** A TCP proxy in front of PostgreSQL that the test can cut and restore. */
function startProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) return client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  return {
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port))),
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      cut = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('A-44 database outage [postgres]', () => {
  const target = new URL(PG_URL);
  const proxy = startProxy(target);
  const schema = `t_outage_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  let dbh: DbHandle;
  let p: Product;
  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const port = await proxy.listen();
    const viaProxy = new URL(PG_URL);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(port);
    dbh = openDb(viaProxy.toString(), { schema, poolMax: 3 });
    p = await appOn(dbh);
  });
  afterAll(async () => {
    await p.app.close();
    await dbh.close();
    await proxy.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
    fs.rmSync(p.dataDir, { recursive: true, force: true });
  });

  it('answers 503, issues no session, fails readiness, then recovers', async () => {
    expect((await login(p)).status).toBe(200);
    const count = async () => Number((await admin.query(`select count(*) from ${schema}.sessions`)).rows[0].count);
    const before = await count();
    const captcha = await solveCaptcha(p.ctx);
    proxy.cut();
    expectOutage(await login(p, captcha));
    expect(await ready(p)).toBe(503);
    expect(await count()).toBe(before);
    proxy.restore();
    expect(await ready(p)).toBe(200);
    expect((await login(p)).status).toBe(200);
    expect(await count()).toBe(before + 1);
  });
});
