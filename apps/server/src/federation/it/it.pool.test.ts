/**
 * The keep-alive pool of the IT client (pool.ts): sign-ins reuse one connection to the
 * backend; a settings change reaches the new target, not the old socket; idle sockets close
 * and empty agents go; the pool is bounded. A-37 holds with the pool: a host resolving to a
 * private address is refused, a warm socket allowed for one caller never serves a caller who
 * may not reach private addresses, and every new socket of the agent gets the peer check.
 */
process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedAgent, OutboundRefused } from '../../notify/outbound.js';
import { systemClock } from '../../platform/clock.js';
import { describeBothDbs } from '../../test/harness.js';
import { setRealmSettings, signIn } from '../../test/kit.js';
import { callIt, ItUnavailable, type ItBackend } from './client.js';
import { APP_KEY, APP_SECRET, itGroup, itRealm, PREFIX } from './it.testkit.js';
import { createItPool, type ItPool } from './pool.js';

const PASSWORD = 'Backend-Pass-1';
const REF_URL = new URL('../../../../../examples/it-backend/server.mjs', import.meta.url).href;

interface Counted {
  port: number;
  /** TCP connections the backend accepted, and how many are open now */
  connections: () => number;
  open: () => number;
  requests: () => number;
  addUser: (u: { username: string; password: string }) => Promise<unknown>;
  close: () => Promise<void>;
}

const started: Counted[] = [];
afterEach(async () => {
  for (const b of started.splice(0)) await b.close();
});

/** The reference backend, counting the connections and requests it gets. */
async function counted(): Promise<Counted> {
  const mod = (await import(REF_URL)) as {
    createServer(o: { db: string; appKey: string; appSecret: string; prefix: string }): http.Server & { addUser: Counted['addUser'] };
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'it-pool-'));
  const server = mod.createServer({ db: path.join(dir, 'users.sqlite'), appKey: APP_KEY, appSecret: APP_SECRET, prefix: PREFIX });
  let connections = 0;
  let open = 0;
  let requests = 0;
  server.on('connection', (s: import('node:net').Socket) => {
    connections++;
    open++;
    s.on('close', () => open--);
  });
  server.on('request', () => requests++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const b: Counted = {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    open: () => open,
    requests: () => requests,
    addUser: (u) => server.addUser(u),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        fs.rmSync(dir, { recursive: true, force: true });
      }),
  };
  started.push(b);
  return b;
}

const uniq = () => Math.random().toString(36).slice(2, 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeBothDbs('IT client keep-alive pool', (h) => {
  it('many sequential sign-ins through the backend use one connection', async () => {
    const ref = await counted();
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port));
    const username = `pool${uniq()}`;
    await ref.addUser({ username, password: PASSWORD });
    for (let i = 0; i < 12; i++) expect((await signIn(h(), { username, password: PASSWORD, realmId })).status).toBe(200);
    expect(ref.requests()).toBe(12);
    expect(ref.connections()).toBe(1);
  });

  it('after the realm moves to another port, sign-ins go to the new backend and never over the old socket', async () => {
    const before = await counted();
    const after = await counted();
    const group = itGroup('ecogloble', before.port);
    const realmId = await itRealm(h(), group);
    const username = `move${uniq()}`;
    await before.addUser({ username, password: PASSWORD });
    const moved = `moved${uniq()}`;
    await after.addUser({ username: moved, password: 'Moved-Pass-2' });
    expect((await signIn(h(), { username, password: PASSWORD, realmId })).status).toBe(200);
    await setRealmSettings(h(), realmId, {
      backend_type: 'ecogloble',
      backend: { ...group, port: after.port, appSercet: h().ctx.secrets.encrypt(APP_SECRET) } as never,
      backend_realm_id: 'tenant-1',
    });
    // the old backend's user is unknown now: the new backend answered, over its own socket
    expect((await signIn(h(), { username, password: PASSWORD, realmId })).body).toMatchObject({ code: 1300 });
    expect((await signIn(h(), { username: moved, password: 'Moved-Pass-2', realmId })).status).toBe(200);
    expect(before.requests()).toBe(1);
    expect(after.requests()).toBe(2);
    expect(after.connections()).toBe(1);
  });
});

const backendOf = (port: number, host = '127.0.0.1'): ItBackend =>
  ({ ...itGroup('ecogloble', port, { regions: [{ region: '86', host }] }), appSercet: 'sealed' }) as unknown as ItBackend;

function lookupCall(pool: ItPool, port: number, o: { host?: string; allowPrivate: boolean; resolve?: () => Promise<{ address: string; family: number }[]> }) {
  return callIt(
    { clock: systemClock, allowPrivate: o.allowPrivate, pool, ...(o.resolve ? { outbound: { resolve: o.resolve } } : {}) },
    { backend: backendOf(port, o.host), secret: APP_SECRET, host: o.host ?? '127.0.0.1', endpoint: '/user', fields: { realm: 'tenant-1', userId: 'nobody' } },
  ).then(
    () => 'answered',
    (err: unknown) => (err instanceof ItUnavailable ? err.reason : err instanceof Error && /answered 12/.test(err.message) ? 'answered' : err),
  );
}

describe('IT client pool and A-37', () => {
  it('A-37: a host name that resolves to a private address is refused with the pool; the backend hears nothing', async () => {
    const ref = await counted();
    const pool = createItPool();
    const rebinding = async () => [{ address: '127.0.0.1', family: 4 }];
    expect(await lookupCall(pool, ref.port, { host: 'it.example.test', allowPrivate: false, resolve: rebinding })).toBe('refused');
    expect(await lookupCall(pool, ref.port, { host: 'localhost', allowPrivate: false })).toBe('refused');
    expect(ref.connections()).toBe(0);
    pool.close();
  });

  it('A-37: a warm socket allowed to a private backend never serves a call that may not reach private addresses', async () => {
    const ref = await counted();
    const pool = createItPool();
    const rebinding = async () => [{ address: '127.0.0.1', family: 4 }];
    expect(await lookupCall(pool, ref.port, { host: 'it.example.test', allowPrivate: true, resolve: rebinding })).toBe('answered');
    expect(await lookupCall(pool, ref.port, { host: 'it.example.test', allowPrivate: true, resolve: rebinding })).toBe('answered');
    expect(ref.connections()).toBe(1);
    expect(await lookupCall(pool, ref.port, { host: 'it.example.test', allowPrivate: false, resolve: rebinding })).toBe('refused');
    expect(ref.requests()).toBe(2);
    pool.close();
  });

  it('A-37: every new socket of the guarded agent gets the peer check, even for a caller that skips outbound()', async () => {
    const ref = await counted();
    const agent = guardedAgent({ https: false, allowPrivate: false, maxSockets: 4, idleMs: 1000 });
    // an IP literal skips `lookup`: only the peer check stands between this request and the backend
    const err = await new Promise<unknown>((resolve) => {
      const r = http.request({ host: '127.0.0.1', port: ref.port, path: `${PREFIX}/user`, method: 'POST', agent }, () => resolve('answered'));
      r.on('error', resolve);
      r.end('{}');
    });
    expect(err).toBeInstanceOf(OutboundRefused);
    expect(ref.requests()).toBe(0);
    agent.destroy();
  });

  it('idle sockets close after the idle time and the empty agent is dropped', async () => {
    const ref = await counted();
    const pool = createItPool({ idleMs: 300 });
    expect(await lookupCall(pool, ref.port, { allowPrivate: true })).toBe('answered');
    expect(pool.stats()).toEqual([expect.objectContaining({ sockets: 0, idle: 1 })]);
    expect(ref.open()).toBe(1);
    await sleep(700);
    expect(ref.open()).toBe(0);
    pool.sweep();
    expect(pool.stats()).toEqual([]);
  });

  it('is bounded: concurrent calls beyond maxSockets wait for a socket instead of opening more', async () => {
    const ref = await counted();
    const pool = createItPool({ maxSockets: 2 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => lookupCall(pool, ref.port, { allowPrivate: true })));
    expect(answers).toEqual(Array(8).fill('answered'));
    expect(ref.connections()).toBe(2);
    pool.close();
  });
});
