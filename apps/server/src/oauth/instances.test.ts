/**
 * Issue 12 "Two instances, one state" (DESIGN.md §1): two real server processes (main.ts under
 * tsx, as `npm start` runs it) on one fresh PostgreSQL schema and one Redis (a key prefix of
 * their own), behind one PUBLIC_URL as a load balancer would put them:
 * - a code issued by one is redeemed once across both: a second redemption at the other fails;
 * - a refresh token rotated at one is refused at the other;
 * - a signing key rotated through one is published by the other's JWKS within the cache
 *   lifetime its discovery document and JWKS announce (Cache-Control max-age);
 * - a client disabled through one is refused at once by the other.
 * The realm, its person and client are made through the services by a third, in-process
 * instance on the same database (as platform/instances.test.ts does for captchas).
 * Every process, schema, directory and Redis key made here is removed in afterAll.
 */
import crypto from 'node:crypto';
import { clientCreateBody } from '@umbo/contracts';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/passwords.js';
import { openProduct } from '../open.js';
import { systemClock } from '../platform/clock.js';
import { loadConfig } from '../platform/config.js';
import { defaultRealmSettings } from '../realms/realm-settings.js';
import { PG_URL } from '../test/harness.js';
import { serverProcesses, sleep } from '../test/processes.js';

const RUN = crypto.randomBytes(5).toString('hex');
const REDIS_PREFIX = `umbo-test:oauth-instances-${RUN}:`;
const REDIS_BASE = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379/0';
const REDIS_URL = `${REDIS_BASE}${REDIS_BASE.includes('?') ? '&' : '?'}keyPrefix=${REDIS_PREFIX}`;
const KEY = crypto.randomBytes(32).toString('hex');
const SCHEMA = `t_oinst_${RUN}`;
const DB_URL = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${SCHEMA}`)}`;
/** both instances answer for this one address (a load balancer's), so they are one issuer */
const PUBLIC_URL = 'http://umbo-cluster.test';
const ADMIN_PASSWORD = 'Admin-Passw0rd-oauth';
const REALM = `oi${RUN}`;
const PERSON = { username: `oiuser${RUN}`, password: 'Person-Passw0rd!' };
const REDIRECT = 'http://127.0.0.1/instances/cb';
const FORM = 'application/x-www-form-urlencoded';

const procs = serverProcesses();
const pgAdmin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });

/** One instance of the cluster: the shared database and Redis, a data directory of its own. */
async function start(): Promise<string> {
  const { base } = await procs.start({
    PUBLIC_URL,
    DATA_DIR: procs.tmpDir('umbo-oinst-'),
    DATABASE_URL: DB_URL,
    REDIS_URL,
    MASTER_KEY: KEY,
    ADMIN_PASSWORD,
    MASTER_CAPTCHA_POLICY: 'after_failures',
  });
  return base;
}

interface Json {
  status: number;
  body: any;
  headers: Headers;
}

async function call(
  base: string,
  method: string,
  url: string,
  o: { token?: string; json?: object; form?: Record<string, string>; basic?: [string, string]; cookie?: string } = {},
): Promise<Json> {
  const headers: Record<string, string> = { 'accept-language': 'en' };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.basic) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(o.basic[0])}:${encodeURIComponent(o.basic[1])}`).toString('base64')}`;
  if (o.cookie) headers.cookie = o.cookie;
  let body: string | undefined;
  if (o.json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.json);
  } else if (o.form) {
    headers['content-type'] = FORM;
    body = new URLSearchParams(o.form).toString();
  }
  const res = await fetch(`${base}${url}`, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

async function consoleToken(base: string, username: string, password: string, realmId: string): Promise<string> {
  const res = await call(base, 'POST', '/api/users/auth/login', { json: { username, password, realm_id: realmId } });
  if (res.status !== 200) throw new Error(`sign-in of ${username}: ${JSON.stringify(res.body)}`);
  return res.body.data.token as string;
}

let A: string;
let B: string;
let client: { clientId: string; secret: string };

beforeAll(async () => {
  await pgAdmin.connect();
  await pgAdmin.query(`create schema ${SCHEMA}`);
  // one start first: it migrates and bootstraps; then the second joins
  A = await start();
  B = await start();
  const third = await openProduct(
    loadConfig({ DATA_DIR: procs.tmpDir('umbo-oinst-'), DATABASE_URL: DB_URL, REDIS_URL, MASTER_KEY: KEY, PUBLIC_URL, LOG_LEVEL: 'silent' }),
    systemClock,
  );
  try {
    const { repos, services } = third.ctx;
    const now = Date.now();
    const settings = { ...defaultRealmSettings(), captchaPolicy: 'after_failures' as const };
    await repos.realms.insertRealm({
      id: REALM,
      name: REALM,
      description: 'two instances',
      settings: JSON.stringify(settings),
      created_at: now,
      updated_at: now,
    });
    await repos.accounts.insertPerson({ realmId: REALM, username: PERSON.username, passwordHash: await hashPassword(PERSON.password), now });
    const created = await services.clients.create(
      { realmId: REALM },
      { actor: null },
      clientCreateBody.parse({
        name: 'two instances app',
        desc: 'issue 12 two instances',
        authCodeMulitUse: false,
        tokenExpirSec: 600,
        refreshtokenExpirSec: 3600,
        refreshTokenRecreate: true,
        redirectUris: [REDIRECT],
        grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
        consentRequired: false,
      }),
    );
    client = { clientId: created.client.clientId, secret: created.clientSecret! };
  } finally {
    await third.ctx.close();
    await third.dbh.close();
  }
}, 120_000);

afterAll(async () => {
  await procs.stopAll();
  await pgAdmin.query(`drop schema if exists ${SCHEMA} cascade`).catch(() => {});
  await pgAdmin.end();
  const redis = new Redis(REDIS_BASE, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(`${REDIS_PREFIX}*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}, 60_000);

const tokenPath = `/realms/${REALM}/oauth/token`;

/** A code from instance `at`: authorize → the sign-in challenge → the console proves the user → the redirect. */
async function codeFrom(at: string): Promise<{ code: string; verifier: string }> {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: REDIRECT,
    scope: 'openid offline_access',
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const authz = await call(at, 'GET', `/realms/${REALM}/oauth/authorize?${q.toString()}`);
  expect(authz.status).toBe(303);
  const loginChallenge = new URL(authz.headers.get('location')!).searchParams.get('challenge')!;
  const token = await consoleToken(at, PERSON.username, PERSON.password, REALM);
  const next = await call(at, 'POST', '/api/users/oauth/interaction/login', { token, json: { challenge: loginChallenge } });
  expect(next.status, JSON.stringify(next.body)).toBe(200);
  expect(next.body.data.next).toBe('redirect');
  const code = new URL(next.body.data.redirectTo as string).searchParams.get('code');
  expect(code).toBeTruthy();
  return { code: code!, verifier };
}

const redeem = (at: string, code: string, verifier: string) =>
  call(at, 'POST', tokenPath, {
    basic: [client.clientId, client.secret],
    form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier },
  });
const refresh = (at: string, rt: string) =>
  call(at, 'POST', tokenPath, { basic: [client.clientId, client.secret], form: { grant_type: 'refresh_token', refresh_token: rt } });

describe('issue 12 two instances, one state [postgres + redis, processes]', () => {
  it('a code issued by one is redeemed once across both: the second redemption, at the other, fails', async () => {
    const { code, verifier } = await codeFrom(A);
    const first = await redeem(B, code, verifier);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await redeem(A, code, verifier);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    // and raced: of parallel redemptions at both, exactly one wins
    const raced = await codeFrom(B);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => redeem(n % 2 ? A : B, raced.code, raced.verifier)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 400 && r.body.error === 'invalid_grant')).toHaveLength(9);
  }, 60_000);

  it('a refresh token rotated at one is refused at the other (and the reuse ends the family on both)', async () => {
    const { code, verifier } = await codeFrom(A);
    const tokens = await redeem(A, code, verifier);
    const rt0 = tokens.body.refresh_token as string;
    const rotated = await refresh(A, rt0);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const rt1 = rotated.body.refresh_token as string;
    expect(rt1).not.toBe(rt0);
    expect(await refresh(B, rt0)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await refresh(A, rt1)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  }, 60_000);

  it('a signing key rotated through one is published by the other within the cache lifetime its JWKS announces', async () => {
    const admin = await consoleToken(A, 'admin', ADMIN_PASSWORD, 'master');
    const jwksPath = `/realms/${REALM}/oauth/jwks`;
    const kids = async (at: string) => ((await call(at, 'GET', jwksPath)).body.keys as { kid: string }[]).map((k) => k.kid);
    // the realm's first key exists once something was signed (the flows above); make sure both know it
    const before = await kids(B);
    const jwks = await call(B, 'GET', jwksPath);
    const maxAge = Number(/max-age=(\d+)/.exec(jwks.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    const discovery = await call(B, 'GET', `/realms/${REALM}/.well-known/openid-configuration`);
    expect(Number(/max-age=(\d+)/.exec(discovery.headers.get('cache-control') ?? '')?.[1] ?? maxAge)).toBeLessThanOrEqual(maxAge);

    const rotated = await call(A, 'POST', `/api/users/realms/${REALM}/oauth/keys/rotate`, { token: admin, json: {} });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const at = Date.now();
    const fresh = (await kids(A)).filter((k) => !before.includes(k));
    expect(fresh.length).toBeGreaterThan(0);
    let seenAfter = Infinity;
    while (Date.now() - at <= maxAge * 1000 + 1000) {
      const published = await kids(B);
      if (fresh.every((k) => published.includes(k))) {
        seenAfter = Date.now() - at;
        break;
      }
      await sleep(500);
    }
    expect(seenAfter, `B published the new key after ${seenAfter} ms; its JWKS says max-age=${maxAge}`).toBeLessThanOrEqual(maxAge * 1000);
  }, 120_000);

  it('a client disabled through one is refused at once by the other: its token requests and its users’ access tokens', async () => {
    const { code, verifier } = await codeFrom(A);
    const tokens = await redeem(A, code, verifier);
    expect(tokens.status).toBe(200);
    const cc = await call(B, 'POST', tokenPath, { basic: [client.clientId, client.secret], form: { grant_type: 'client_credentials' } });
    expect(cc.status, JSON.stringify(cc.body)).toBe(200);
    expect((await call(B, 'GET', `/realms/${REALM}/oauth/userinfo`, { token: tokens.body.access_token })).status).toBe(200);

    const admin = await consoleToken(A, 'admin', ADMIN_PASSWORD, 'master');
    const off = await call(A, 'PATCH', `/api/users/realms/${REALM}/clients/${client.clientId}`, { token: admin, json: { disabled: true } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);

    // no waiting: the very next requests at B
    const refused = await call(B, 'POST', tokenPath, { basic: [client.clientId, client.secret], form: { grant_type: 'client_credentials' } });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
    expect(await refresh(B, tokens.body.refresh_token)).toMatchObject({ body: { error: expect.stringMatching(/invalid_client|invalid_grant/) } });
    const info = await call(B, 'GET', `/realms/${REALM}/oauth/userinfo`, { token: tokens.body.access_token });
    expect(info.status).toBe(401);

    // back on for nothing else: the suite's last test
    await call(A, 'PATCH', `/api/users/realms/${REALM}/clients/${client.clientId}`, { token: admin, json: { disabled: false } });
  }, 60_000);
});
