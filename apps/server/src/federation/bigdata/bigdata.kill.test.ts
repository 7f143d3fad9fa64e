/**
 * A-45 for the data centre queue (issue 14): umbo killed with SIGKILL in the middle of
 * delivering, then started again on the same data, delivers every event — in order per
 * account, repeats only of the same event id. A real server process (main.ts under tsx, as
 * `npm start` runs it; test/processes.ts) on its own SQLite data directory and on its own
 * PostgreSQL schema; the data centre is a local receiver that answers slowly, so that
 * requests are under way when the process dies.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serverProcesses, sleep } from '../../test/processes.js';
import { bigdataBackend, linesOf, startReceiver, type Receiver } from './bigdata.testkit.js';

const PASSWORD = 'Kill-Test-Admin-5512';
const ACCOUNTS = 4;
const ACTIONS = ['account.create', 'account.disable', 'account.enable', 'account.disable', 'account.enable', 'account.delete'];
const EVENTS = ACCOUNTS * ACTIONS.length;

const procs = serverProcesses();
let receiver: Receiver;

async function call(base: string, token: string | undefined, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as { code: number; data?: any };
  if (json.code !== 0) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json.data;
}

const adminToken = async (base: string): Promise<string> =>
  (await call(base, undefined, 'POST', '/api/users/auth/login', { username: 'admin', password: PASSWORD, realm_id: 'master' })).token;

const distinct = () => new Set(receiver.received.map((r) => r.report.eventId)).size;

async function until(what: string, done: () => boolean, ms = 60_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (done()) return;
  throw new Error(`timed out waiting for ${what}`);
}

async function killMidQueue(env: Record<string, string>) {
  receiver.mode = 'down';
  receiver.received = [];
  receiver.delayMs = 0;
  const first = await procs.start(env);
  const token = await adminToken(first.base);
  const realmId = `bd${crypto.randomBytes(4).toString('hex')}`;
  await call(first.base, token, 'POST', '/api/users/realms', { realmId, domain: `${realmId}.example.com`, description: 'kill test' });
  await call(first.base, token, 'PATCH', `/api/users/realms/${realmId}/settings`, {
    backend: bigdataBackend(receiver.port, 'kill'),
    backend_realm_id: 'tenant-7',
    backend_regist_url: 'https://dc.example.com/register',
  });
  // the events are written while the data centre refuses them: all of them are in the queue
  const base = `/api/users/realms/${realmId}/accounts`;
  const ids: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) ids.push((await call(first.base, token, 'POST', base, { username: `kill${i}`, password: 'Zebra-Quartz-71' })).id);
  for (const step of ['disable', 'enable', 'disable', 'enable']) for (const id of ids) await call(first.base, token, 'POST', `${base}/${id}/${step}`, {});
  for (const id of ids) await call(first.base, token, 'DELETE', `${base}/${id}`);

  // back, slowly: killed with a few delivered and requests under way
  receiver.delayMs = 150;
  receiver.mode = 'up';
  await until('the first deliveries', () => receiver.received.length >= ACCOUNTS + 1);
  first.child.kill('SIGKILL');
  await first.exited;
  const atKill = distinct();

  const second = await procs.start(env);
  try {
    await until('every event', () => distinct() === EVENTS);
    // the monitor, from the restarted process, sees the realm's queue empty: the data centre counts the
    // last report when it arrives, the queue drops it once the answer is back, so give that a moment
    const token = await adminToken(second.base);
    const queue = await vi.waitFor(
      async () => {
        const { queue } = (await call(second.base, token, 'GET', '/api/users/dashboard/monitor')) as { queue: { realms: { realmId: string }[] } };
        expect(queue.realms.map((q) => q.realmId)).not.toContain(realmId);
        return queue;
      },
      { timeout: 5_000, interval: 100 },
    );
    return { atKill, ids, queue, realmId };
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
}

function expectDelivered(r: Awaited<ReturnType<typeof killMidQueue>>) {
  expect(r.atKill, 'everything went before the kill: slow the receiver down').toBeLessThan(EVENTS);
  const lines = linesOf(receiver.received);
  for (const id of r.ids) {
    const line = lines.get(id) ?? [];
    expect(line.map((e) => e.action)).toEqual(ACTIONS);
    expect(line.every((e) => e.category === 'kill' && e.realmId === r.realmId)).toBe(true);
  }
  // repeats only as at-least-once: the same ids again, never new ones
  expect(distinct()).toBe(EVENTS);
  expect(r.queue.realms.find((q) => q.realmId === r.realmId)).toBeUndefined();
}

describe('A-45 data centre queue killed mid-delivery (kill -9)', () => {
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await procs.stopAll();
    await receiver.close();
  });

  const baseEnv = () => ({
    DATA_DIR: procs.tmpDir('umbo-bigdata-kill-'),
    ADMIN_PASSWORD: PASSWORD,
    MASTER_CAPTCHA_POLICY: 'after_failures',
    MASTER_KEY: '33'.repeat(32),
    BIGDATA_ALLOW_PRIVATE_NETWORK: 'true',
    BIGDATA_POLL_MS: '100',
    // a killed process's claimed rows are due again after this
    BIGDATA_LEASE_MS: '2000',
  });

  it('[sqlite] every event is delivered after a restart, in order per account', async () => {
    expectDelivered(await killMidQueue(baseEnv()));
  }, 180_000);

  it('[postgres] every event is delivered after a restart, in order per account', async () => {
    const { url } = await procs.pgSchemaForProcess('t_bdkill_');
    expectDelivered(await killMidQueue({ ...baseEnv(), DATABASE_URL: url }));
  }, 180_000);
});
