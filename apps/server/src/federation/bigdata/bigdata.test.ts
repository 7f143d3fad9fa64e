/**
 * The data centre queue (issue 14) over the real app on SQLite and PostgreSQL, with a local
 * receiver (bigdata.testkit.ts) as the data centre: account events of a bigdata realm arrive
 * in order per account, tagged with the realm's category; a data centre that is down, then
 * back, loses nothing and sees repeats only of the same event id; two senders never send one
 * row twice; A-37 holds (no loopback without the operator's consent); other realms queue nothing.
 * The delivery loop is driven a look at a time (`tick`) with the suite's fake clock.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import { as, createRealm, randomName, signIn } from '../../test/kit.js';
import { BIGDATA_DEFAULTS } from '../../platform/config.js';
import { backoffMs } from './bigdata.config.js';
import { createBigdataDelivery, type BigdataDelivery } from './bigdata.delivery.js';
import { kindOf } from './bigdata.events.js';
import { bigdataBackend, linesOf, startReceiver, type Receiver } from './bigdata.testkit.js';

const PASSWORD = 'Zebra-Quartz-71';
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(() => {
  receiver.mode = 'up';
  receiver.received = [];
  receiver.refused = 0;
});

const queued = async (h: Harness, realmId: string) =>
  (await h.ctx.db.selectFrom('bigdata_events').selectAll().where('realm_id', '=', realmId).orderBy('seq').execute()).map((r) => ({ ...r, seq: Number(r.seq) }));

/** Looks at the queue until `realmId`'s events are gone, moving the clock past every backoff. */
async function drain(h: Harness, realmId: string, delivery: Pick<BigdataDelivery, 'tick'> = h.ctx.services.bigdata): Promise<number> {
  let looks = 0;
  while ((await queued(h, realmId)).length > 0) {
    if (++looks > 200) throw new Error('the queue does not drain');
    await delivery.tick();
    h.clock.advance(BIGDATA_DEFAULTS.retryMaxMs);
  }
  return looks;
}

/** Per account: created, disabled, enabled, signed in, deleted — through the admin API and the sign-in form. */
async function accountStory(h: Harness, token: string, realmId: string, n: number) {
  const base = `/api/users/realms/${realmId}/accounts`;
  const people: { id: string; username: string }[] = [];
  for (let i = 0; i < n; i++) {
    const res = await as(h, token).post(base, { username: randomName('bd'), password: PASSWORD, forcePassword: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    people.push({ id: res.body.data.id, username: res.body.data.username });
  }
  // interleaved across accounts, so that only the per-account order is guaranteed
  for (const p of people) expect((await as(h, token).post(`${base}/${p.id}/disable`, {})).status).toBe(200);
  for (const p of people) expect((await as(h, token).post(`${base}/${p.id}/enable`, {})).status).toBe(200);
  for (const p of people) expect((await signIn(h, { username: p.username, password: PASSWORD, realmId })).status).toBe(200);
  for (const p of people) expect((await as(h, token).delete(`${base}/${p.id}`)).status).toBe(200);
  return people;
}

it('retries back off exponentially with jitter, capped at 5 minutes', () => {
  const o = BIGDATA_DEFAULTS;
  expect([1, 2, 3, 4].map((n) => backoffMs(o, n, () => 0))).toEqual([500, 1000, 2000, 4000]);
  expect([1, 2, 3, 4].map((n) => backoffMs(o, n, () => 1))).toEqual([1000, 2000, 4000, 8000]);
  expect(backoffMs(o, 40, () => 1)).toBe(300_000);
  expect(backoffMs(o, 40, () => 0)).toBe(150_000);
});

it('which audit events are reported: account and service account events that succeeded, sign-ins but not their steps', () => {
  const e = (action: string, type = 'account', result: 'ok' | 'fail' = 'ok') =>
    kindOf({ realmId: 'r', actor: null, action, target: { type, id: 'a', name: 'n' }, result });
  expect(e('registration')).toBe('registered');
  expect(e('service.create', 'service')).toBe('registered');
  expect(e('signin.sms')).toBe('signed_in');
  expect(e('signin.password', 'account', 'fail')).toBeUndefined();
  expect(e('signin.otp')).toBeUndefined();
  expect(e('signin.lock')).toBeUndefined();
  expect(e('password.reset')).toBe('changed');
  expect(e('service.disable', 'service')).toBe('disabled');
  expect(e('account.delete')).toBe('deleted');
  expect(e('role.bind')).toBeUndefined();
  expect(e('pki.key.create', 'key')).toBeUndefined();
  expect(kindOf({ realmId: 'r', actor: null, action: 'account.import', result: 'ok' })).toBeUndefined();
});

const STORY = ['registered', 'disabled', 'changed', 'signed_in', 'deleted'];
const STORY_ACTIONS = ['account.create', 'account.disable', 'account.enable', 'signin.password', 'account.delete'];

// The receiver is on loopback: the operator's switch (README) lets the suite's queue reach it.
describeBothDbs(
  'data centre event queue (issue 14)',
  (h) => {
    let token: string;
    beforeAll(async () => {
      token = await h().login();
    });
    const bigdataRealm = (category = 'robots') => createRealm(h(), { backend_type: 'bigdata', backend: bigdataBackend(receiver.port, category) });

    it('events of a bigdata realm arrive in order per account, tagged with the category, each once, with no secret', async () => {
      const realmId = await bigdataRealm('robots-eu');
      const people = await accountStory(h(), token, realmId, 3);
      const rows = await queued(h(), realmId);
      expect(rows).toHaveLength(15);
      expect(receiver.received).toHaveLength(0);

      await drain(h(), realmId);
      expect(receiver.received).toHaveLength(15);
      const lines = linesOf(receiver.received);
      for (const p of people) {
        const line = lines.get(p.id)!;
        expect(line.map((r) => r.kind)).toEqual(STORY);
        expect(line.map((r) => r.action)).toEqual(STORY_ACTIONS);
        // the queue's own order for the account: event ids as they were written
        expect(line.map((r) => r.eventId)).toEqual(rows.filter((r) => r.account_id === p.id).map((r) => r.event_id));
        expect(line.every((r) => r.category === 'robots-eu' && r.realmId === realmId && r.accountName === p.username)).toBe(true);
      }
      expect(receiver.received.find((r) => r.report.kind === 'signed_in')!.report.method).toBe('password');
      expect(receiver.received.every((r) => r.idempotencyKey === r.report.eventId && r.path === '/events')).toBe(true);
      expect(JSON.stringify(receiver.received)).not.toContain(PASSWORD);
    });

    it('the data centre down for a while, then back: nothing lost, event n+1 never before n, repeats only of the same event id', async () => {
      const realmId = await bigdataRealm();
      const people = await accountStory(h(), token, realmId, 2);
      const expected = (await queued(h(), realmId)).map((r) => r.event_id);

      receiver.mode = 'down';
      for (let i = 0; i < 4; i++) {
        await h().ctx.services.bigdata.tick();
        h().clock.advance(BIGDATA_DEFAULTS.retryMaxMs);
      }
      // only the head of each account's line was tried, four times
      expect(receiver.refused).toBe(8);
      const waiting = await queued(h(), realmId);
      expect(waiting).toHaveLength(10);
      expect(waiting.filter((r) => r.attempts === 4).map((r) => r.kind)).toEqual(['registered', 'registered']);
      expect(waiting.every((r) => r.attempts === 0 || r.last_error === 'HTTP 503')).toBe(true);

      // the monitor shows it, with no payload
      const monitor = await as(h(), token).get('/api/users/dashboard/monitor');
      const entry = monitor.body.data.queue.realms.find((r: { realmId: string }) => r.realmId === realmId);
      expect(entry).toMatchObject({ realmId, pending: 10, failing: 2, lastError: 'HTTP 503' });
      expect(entry.oldestAgeSeconds).toBeGreaterThan(0);
      expect(monitor.body.data.queue.pending).toBeGreaterThanOrEqual(10);

      // back, but the first answers are lost on the way: the data centre sees those events again
      receiver.mode = 'ack-lost';
      await h().ctx.services.bigdata.tick();
      expect(receiver.received).toHaveLength(2);
      receiver.mode = 'up';
      await drain(h(), realmId);

      const ids = receiver.received.map((r) => r.report.eventId);
      expect(new Set(ids)).toEqual(new Set(expected));
      expect(ids.length).toBe(expected.length + 2);
      const lines = linesOf(receiver.received);
      for (const p of people) expect(lines.get(p.id)!.map((r) => r.kind)).toEqual(STORY);
      const after = await as(h(), token).get('/api/users/dashboard/monitor');
      expect(after.body.data.queue.realms.find((r: { realmId: string }) => r.realmId === realmId)).toBeUndefined();
    });

    it('two senders on one queue: every event once, in order (the claim is taken by one)', async () => {
      const realmId = await bigdataRealm();
      const people = await accountStory(h(), token, realmId, 3);
      const other = createBigdataDelivery({
        repo: h().ctx.repos.bigdata,
        realms: h().ctx.repos.realms,
        clock: h().clock,
        log: h().ctx.log,
        options: { ...BIGDATA_DEFAULTS, allowPrivate: true },
      });
      receiver.delayMs = 20;
      try {
        for (let i = 0; i < 20 && (await queued(h(), realmId)).length > 0; i++) await Promise.all([h().ctx.services.bigdata.tick(), other.tick()]);
      } finally {
        receiver.delayMs = 0;
      }
      expect(await queued(h(), realmId)).toHaveLength(0);
      expect(receiver.received).toHaveLength(15);
      const lines = linesOf(receiver.received);
      for (const p of people) expect(lines.get(p.id)!.map((r) => r.kind)).toEqual(STORY);
    });

    it('A-37: without BIGDATA_ALLOW_PRIVATE_NETWORK a loopback data centre is refused; the event waits, it is not lost', async () => {
      const realmId = await bigdataRealm();
      await accountStory(h(), token, realmId, 1);
      const guarded = createBigdataDelivery({
        repo: h().ctx.repos.bigdata,
        realms: h().ctx.repos.realms,
        clock: h().clock,
        log: h().ctx.log,
        options: BIGDATA_DEFAULTS,
      });
      await guarded.tick();
      expect(receiver.received).toHaveLength(0);
      const [head] = await queued(h(), realmId);
      expect(head).toMatchObject({ kind: 'registered', attempts: 1, last_error: 'refused: refused address 127.0.0.1' });
      await drain(h(), realmId);
      expect(receiver.received.map((r) => r.report.kind)).toEqual(STORY);
    });

    it('a realm that is not bigdata queues nothing; a change that rolls back queues nothing', async () => {
      const realmId = await createRealm(h());
      await accountStory(h(), token, realmId, 1);
      expect(await queued(h(), realmId)).toHaveLength(0);

      const bd = await bigdataRealm();
      await expect(
        h()
          .ctx.db.transaction()
          .execute(async (trx) => {
            await h().ctx.services.audit.record(
              { realmId: bd, actor: null, action: 'account.update', target: { type: 'account', id: 'x1', name: 'x' }, result: 'ok' },
              trx,
            );
            expect(await trx.selectFrom('bigdata_events').select('seq').where('realm_id', '=', bd).execute()).toHaveLength(1);
            throw new Error('rolled back');
          }),
      ).rejects.toThrow('rolled back');
      expect(await queued(h(), bd)).toHaveLength(0);
    });

    it('a realm that stops reporting keeps its events waiting; deleting the realm takes them along', async () => {
      const realmId = await bigdataRealm();
      await accountStory(h(), token, realmId, 1);
      const realm = (await h().ctx.repos.realms.findRealmById(realmId))!;
      const settings = JSON.parse(realm.settings) as Record<string, unknown>;
      await h().ctx.repos.realms.updateRealmSettings(
        realmId,
        realm.settings,
        JSON.stringify({ ...settings, backend_type: 'default', backend: undefined }),
        h().clock.now(),
      );
      await h().ctx.services.bigdata.tick();
      expect(receiver.received).toHaveLength(0);
      expect((await queued(h(), realmId))[0]).toMatchObject({ attempts: 1, last_error: 'realm does not report to a data centre' });
      expect((await as(h(), token).delete(`/api/users/realms/${realmId}`)).status).toBe(200);
      expect(await queued(h(), realmId)).toHaveLength(0);
    });
  },
  { BIGDATA_ALLOW_PRIVATE_NETWORK: 'true' },
);
