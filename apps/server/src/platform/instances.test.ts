/**
 * Issue 9, DESIGN.md §1: any number of server processes share one PostgreSQL and one Redis.
 * Real processes (main.ts under tsx, as `npm start` runs it), each with its own port and
 * DATA_DIR, on a fresh PostgreSQL schema and their own Redis key prefix:
 * - started at the same moment, both come up; a session, a code and the sign-in throttle
 *   issued or counted by one hold on the other;
 * - an instance with another MASTER_KEY refuses to start, says why and what to do, and writes
 *   nothing;
 * - without MASTER_KEY on PostgreSQL every instance warns, and two instances that each made
 *   their own key cannot both run: the second to record it is refused.
 * Every process, schema, directory and Redis key made here is removed in afterAll.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openProduct } from '../open.js';
import { PG_URL } from '../test/harness.js';
import { systemClock } from './clock.js';
import { loadConfig } from './config.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const RUN = crypto.randomBytes(5).toString('hex');
const REDIS_PREFIX = `umbo-test:instances-${RUN}:`;
const REDIS_BASE = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379/0';
const REDIS_URL = `${REDIS_BASE}${REDIS_BASE.includes('?') ? '&' : '?'}keyPrefix=${REDIS_PREFIX}`;
const KEY = crypto.randomBytes(32).toString('hex');
const START_MS = 30_000;

interface Instance {
  base: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** the exit code, once the process has ended */
  exited: Promise<number | null>;
}

const instances: Instance[] = [];
const schemas: string[] = [];
const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
const pgAdmin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
let pgConnected = false;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tmpDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-instance-'));
  dirs.push(dir);
  return dir;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A new, empty schema, and the DATABASE_URL that puts the server in it (search_path). */
async function freshDatabase(): Promise<{ schema: string; url: string }> {
  if (!pgConnected) {
    await pgAdmin.connect();
    pgConnected = true;
  }
  const schema = `t_inst_${RUN}_${schemas.length}`;
  await pgAdmin.query(`create schema ${schema}`);
  schemas.push(schema);
  const options = encodeURIComponent(`-c search_path=${schema}`);
  return { schema, url: `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${options}` };
}

/** One server process. Only what it needs from this environment: no MASTER_KEY leaks in. */
async function start(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: tmpDir(),
      REDIS_URL,
      MASTER_CAPTCHA_POLICY: 'after_failures',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const instance = { base: `http://127.0.0.1:${port}`, child, stdout: () => out, stderr: () => err, exited };
  instances.push(instance);
  return instance;
}

/** 'ready' once /readyz answers 200, or the exit code if the process ends first. */
async function outcome(i: Instance, ms = START_MS): Promise<'ready' | number | null> {
  let code: number | null | undefined;
  void i.exited.then((c) => (code = c));
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (code !== undefined) return code;
    try {
      if ((await fetch(`${i.base}/readyz`, { signal: AbortSignal.timeout(1000) })).ok) return 'ready';
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`no outcome in ${ms} ms; stderr:\n${i.stderr()}`);
}

async function stop(i: Instance): Promise<void> {
  if (i.child.exitCode !== null || i.child.signalCode !== null) return;
  i.child.kill('SIGTERM');
  const done = await Promise.race([i.exited.then(() => true), sleep(5000).then(() => false)]);
  if (!done) {
    i.child.kill('SIGKILL');
    await i.exited;
  }
}

interface Answer {
  status: number;
  body: { result: string; code: number; data?: any; errData?: { locked?: boolean; retryAfter?: number } };
}

async function call(i: Instance, method: string, url: string, body?: object, token?: string): Promise<Answer> {
  const headers: Record<string, string> = { 'accept-language': 'en' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${i.base}${url}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** The 6-digit code of the newest outbox message to `recipient`, as a master administrator reads it. */
async function codeFromOutbox(i: Instance, token: string, recipient: string): Promise<string> {
  for (let tries = 0; tries < 50; tries++) {
    const res = await call(i, 'GET', `/api/users/outbox?channel=sms&recipient=${encodeURIComponent(recipient)}`, undefined, token);
    expect(res.status).toBe(200);
    const m = /\b(\d{6})\b/.exec(res.body.data.items[0]?.body ?? '');
    if (m) return m[1]!;
    await sleep(100); // delivery settles after the answer
  }
  throw new Error(`no code for ${recipient}`);
}

/** Every table of the schema, each as a digest of its rows: equal digests, nothing written. */
async function snapshot(schema: string): Promise<Record<string, string>> {
  const tables = await pgAdmin.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = $1 order by 1`, [schema]);
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const r = await pgAdmin.query<{ d: string }>(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as d from ${schema}."${name}" t`);
    out[name] = r.rows[0]!.d;
  }
  return out;
}

const NO_STACK = /^\s+at /m;
const PASSWORD_LINE = /password:\s+(\S+)/;

afterAll(async () => {
  await Promise.all(instances.map(stop));
  for (const c of cleanups) await c().catch(() => {});
  if (pgConnected) {
    for (const s of schemas) await pgAdmin.query(`drop schema if exists ${s} cascade`).catch(() => {});
    await pgAdmin.end();
  }
  const redis = new Redis(REDIS_BASE, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(`${REDIS_PREFIX}*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
}, 60_000);

describe('issue 9 several instances, one state [postgres + redis, processes]', () => {
  it('two instances started together on a fresh database both come up and share sessions, codes and the throttle', async () => {
    const { url } = await freshDatabase();
    // No ADMIN_PASSWORD: the first admin's password is generated, so its printing shows who created it.
    const env = { DATABASE_URL: url, MASTER_KEY: KEY };
    const [a, b] = await Promise.all([start(env), start(env)]);
    expect(await Promise.all([outcome(a), outcome(b)])).toEqual(['ready', 'ready']);
    for (const i of [a, b]) {
      expect(i.stderr()).not.toContain('WARNING');
      expect(i.stderr()).not.toMatch(NO_STACK);
    }
    const printed = [a, b].map((i) => PASSWORD_LINE.exec(i.stdout())?.[1]).filter((p) => p !== undefined);
    expect(printed).toHaveLength(1);

    // A session from A works on B; a logout on B ends it on A.
    const login = await call(a, 'POST', '/api/users/auth/login', { username: 'admin', password: printed[0] });
    expect(login.status).toBe(200);
    const token = login.body.data.token as string;
    expect((await call(b, 'GET', '/api/users/account', undefined, token)).status).toBe(200);

    // A code sent by A (kept in the outbox, sealed) is read and checked by B.
    const mobile = `13${crypto.randomInt(100_000_000, 999_999_999)}`;
    const sent = await call(a, 'POST', '/api/users/auth/sms-code', { mobile, purpose: 'register' });
    expect(sent.status).toBe(200);
    const code = await codeFromOutbox(b, token, `+86${mobile}`);
    const reg = await call(b, 'POST', '/api/users/auth/register/sms', { mobile, code, serialNo: sent.body.data.serialNo, password: 'Str0ng-pass!' });
    expect(reg.status).toBe(200);
    const username = reg.body.data.username as string;

    expect((await call(b, 'POST', '/api/users/auth/logout', {}, token)).status).toBe(200);
    expect((await call(a, 'GET', '/api/users/account', undefined, token)).status).toBe(401);

    // The throttle counts across both: 3 free failures (A, B, A), the 4th (B) blocks the name,
    // and then even the right password is refused on either. From the 4th on the password
    // form asks for a captcha (after_failures); a third, in-process instance on the same
    // database and Redis issues them, as the image a person would read.
    const third = await openProduct(loadConfig({ DATA_DIR: tmpDir(), DATABASE_URL: url, REDIS_URL, MASTER_KEY: KEY, LOG_LEVEL: 'silent' }), systemClock);
    cleanups.push(async () => {
      await third.ctx.close();
      await third.dbh.close();
    });
    const captcha = async () => {
      const c = await third.ctx.services.captcha.issue('master', '127.0.0.1');
      return { captcha: c.answer, serialNo: c.serialNo };
    };
    const attempt = (i: Instance, password: string, extra: object = {}) => call(i, 'POST', '/api/users/auth/login', { username, password, ...extra });
    for (const [n, i] of [a, b, a].entries()) {
      const res = await attempt(i, `Wrong-${n}-pass`);
      expect(res.body).toMatchObject({ code: 1010 });
      expect(res.body.errData?.locked).toBeUndefined();
    }
    const captchas = await Promise.all([captcha(), captcha(), captcha()]);
    const fourth = await attempt(b, 'Wrong-3-pass', captchas[0]);
    expect(fourth.body).toMatchObject({ code: 1010, errData: { locked: true } });
    // The lock lasts 1 s (auth/throttle/defaults.ts): both attempts below come well within it.
    for (const [n, i] of [a, b].entries()) {
      const res = await attempt(i, 'Str0ng-pass!', captchas[n + 1]);
      expect(res.body).toMatchObject({ code: 1010, errData: { locked: true } });
    }
  }, 60_000);

  it('an instance with another MASTER_KEY refuses to start, says what to do, and writes nothing', async () => {
    const { url, schema } = await freshDatabase();
    const a = await start({ DATABASE_URL: url, MASTER_KEY: KEY, ADMIN_PASSWORD: 'Admin-Passw0rd!' });
    expect(await outcome(a)).toBe('ready');
    // Stopped, so that its own jobs cannot change the database while B is watched.
    await stop(a);
    const before = await snapshot(schema);
    expect(before.instance_settings).toBeDefined();

    const b = await start({ DATABASE_URL: url, MASTER_KEY: crypto.randomBytes(32).toString('hex'), ADMIN_PASSWORD: 'Admin-Passw0rd!' });
    expect(await outcome(b)).toBe(1);
    expect(b.stderr()).toMatch(/^configuration: MASTER_KEY does not match this database/m);
    expect(b.stderr()).toContain("This instance's key comes from the MASTER_KEY variable");
    expect(b.stderr()).toContain('Every instance sharing a database must run with the same MASTER_KEY');
    expect(b.stderr()).not.toMatch(NO_STACK);
    expect(b.stdout()).not.toContain('listening');
    expect(await snapshot(schema)).toEqual(before);
  }, 60_000);

  it('without MASTER_KEY on PostgreSQL both warn; of two instances with their own keys only one runs', async () => {
    const { url } = await freshDatabase();
    const [a, b] = await Promise.all([start({ DATABASE_URL: url }), start({ DATABASE_URL: url })]);
    const outcomes = await Promise.all([outcome(a), outcome(b)]);
    expect([...outcomes].sort()).toEqual([1, 'ready']);
    for (const i of [a, b]) {
      expect(i.stderr()).toContain('WARNING: MASTER_KEY is not set, and the database is PostgreSQL');
      expect(i.stderr()).toContain('SAME MASTER_KEY');
      expect(i.stderr()).not.toMatch(NO_STACK);
    }
    const [running, refused] = outcomes[0] === 'ready' ? [a, b] : [b, a];
    expect(refused.stderr()).toMatch(/^configuration: MASTER_KEY does not match this database/m);
    expect(refused.stderr()).toMatch(/master\.key, generated just now because MASTER_KEY is not set/);
    // The one that runs created the first admin; the refused one printed no password.
    expect(running.stdout()).toMatch(PASSWORD_LINE);
    expect(refused.stdout()).not.toMatch(PASSWORD_LINE);
  }, 60_000);
});
