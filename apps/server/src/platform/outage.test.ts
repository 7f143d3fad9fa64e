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
import { createContext, type AppContext } from '../context.js';
import { bootstrap } from '../realms/bootstrap.js';
import { ADMIN_PASSWORD, PG_URL, solveCaptcha, testConfig } from '../test/harness.js';
import { FakeClock } from './clock.js';
import { openDb, type DbHandle } from './db.js';
import { migrateToLatest } from './migrations/index.js';

const contexts = new WeakMap<FastifyInstance, AppContext>();

async function appOn(dbh: DbHandle): Promise<FastifyInstance> {
  const clock = new FakeClock(Date.now());
  await migrateToLatest(dbh.db, dbh.schema);
  await bootstrap(dbh.db, clock, ADMIN_PASSWORD);
  const ctx = createContext(testConfig(), dbh, clock);
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  contexts.set(app, ctx);
  return app;
}

/** The captcha is solved while the database is still there (it is stored there too). */
const captchaFor = (app: FastifyInstance) => solveCaptcha(contexts.get(app)!);

const login = async (app: FastifyInstance, captcha?: { captcha: string; serialNo: string }) =>
  app.inject({
    method: 'POST',
    url: '/api/users/auth/login',
    headers: { 'accept-language': 'en' },
    payload: { username: 'admin', password: ADMIN_PASSWORD, ...(captcha ?? (await captchaFor(app))) },
  });

function expectOutage(res: Awaited<ReturnType<typeof login>>) {
  expect(res.statusCode).toBe(503);
  expect(res.json()).toEqual({ result: 'fail', code: 1201, errno: 1201, error: 'database_error', msg: 'Database operation error' });
  expect(res.body).not.toMatch(/SQLITE|ECONN|terminated|at \w+ \(/);
}

describe('A-44 database outage [sqlite]', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-outage-'));
  const file = path.join(dir, 'db.sqlite');
  let dbh: DbHandle;
  let app: FastifyInstance;
  beforeAll(async () => {
    dbh = openDb(`sqlite:${file}`, { busyTimeoutMs: 100 });
    app = await appOn(dbh);
  });
  afterAll(async () => {
    await app.close();
    await dbh.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503, issues no session, fails readiness, then recovers', async () => {
    expect((await login(app)).statusCode).toBe(200);
    const before = await dbh.db.selectFrom('sessions').select('id').execute();
    const captcha = await captchaFor(app);
    const locker = new SQLite(file);
    locker.exec('BEGIN EXCLUSIVE');
    try {
      expectOutage(await login(app, captcha));
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    const after = await dbh.db.selectFrom('sessions').select('id').execute();
    expect(after.length).toBe(before.length);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await login(app)).statusCode).toBe(200);
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
  let app: FastifyInstance;
  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const port = await proxy.listen();
    const viaProxy = new URL(PG_URL);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(port);
    dbh = openDb(viaProxy.toString(), { schema, poolMax: 3 });
    app = await appOn(dbh);
  });
  afterAll(async () => {
    await app.close();
    await dbh.close();
    await proxy.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  });

  it('answers 503, issues no session, fails readiness, then recovers', async () => {
    expect((await login(app)).statusCode).toBe(200);
    const count = async () => Number((await admin.query(`select count(*) from ${schema}.sessions`)).rows[0].count);
    const before = await count();
    const captcha = await captchaFor(app);
    proxy.cut();
    expectOutage(await login(app, captcha));
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    expect(await count()).toBe(before);
    proxy.restore();
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await login(app)).statusCode).toBe(200);
    expect(await count()).toBe(before + 1);
  });
});
