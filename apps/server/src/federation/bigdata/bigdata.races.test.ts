/**
 * The data centre queue racing a realm's deletion (issue 14), on SQLite and PostgreSQL: the
 * delivery loop runs on its own (start/stop, as main.ts runs it) while a realm whose data
 * centre answers slowly is deleted with its reports under way. The documented behaviour
 * (migration of bigdata_events, bigdata.test.ts): the realm's deletion takes its waiting rows
 * along. Here also: the sends under way end without a crash or an unhandled rejection, nothing
 * of the deleted realm comes back, and the loop goes on delivering every other realm's events.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import { as, createRealm } from '../../test/kit.js';
import { BIGDATA_DEFAULTS } from '../../platform/config.js';
import { createBigdataDelivery } from './bigdata.delivery.js';
import { bigdataBackend, startReceiver, type Receiver } from './bigdata.testkit.js';

let slow: Receiver;
let fast: Receiver;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(async () => {
  slow = await startReceiver();
  slow.delayMs = 300;
  fast = await startReceiver();
  process.on('unhandledRejection', onUnhandled);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await slow.close();
  await fast.close();
});

const rowsOf = (h: Harness, realmId: string) => h.ctx.db.selectFrom('bigdata_events').select(['seq', 'state']).where('realm_id', '=', realmId).execute();

/** `n` account events of the realm, one account each (so every one heads its own line). */
async function events(h: Harness, realmId: string, n: number, tag: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    await h.ctx.services.audit.record({
      realmId,
      actor: null,
      action: 'account.update',
      target: { type: 'account', id: `${tag}${i}`, name: `${tag}${i}` },
      result: 'ok',
    });
  }
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const receivedFrom = (r: Receiver, realmId: string) => new Set(r.received.filter((x) => x.report.realmId === realmId).map((x) => x.report.eventId));

describeBothDbs('data centre queue while a realm is deleted', (h) => {
  it('A-45 the realm deleted with its reports under way (slow data centre): its rows go with it, no unhandled rejection, other realms keep being delivered', async () => {
    const token = await h().login();
    const doomed = await createRealm(h(), { backend_type: 'bigdata', backend: bigdataBackend(slow.port, 'doomed') });
    const other = await createRealm(h(), { backend_type: 'bigdata', backend: bigdataBackend(fast.port, 'other') });
    await events(h(), doomed, 40, 'd');
    await events(h(), other, 200, 'o');
    const delivery = createBigdataDelivery({
      repo: h().ctx.repos.bigdata,
      realms: h().ctx.repos.realms,
      clock: h().clock,
      log: h().ctx.log,
      options: { ...BIGDATA_DEFAULTS, allowPrivate: true, pollMs: 50 },
    });
    const unhandledBefore = unhandled.length;
    delivery.start();
    try {
      // the doomed realm's first reports are with its slow data centre
      await until('sends under way', async () => (await rowsOf(h(), doomed)).some((r) => r.state === 'sending'));
      const deleted = await as(h(), token).delete(`/api/users/realms/${doomed}`);
      expect(deleted.status).toBe(200);
      expect(await rowsOf(h(), doomed)).toEqual([]);

      // the other realm's 200 arrive; then 30 more written after the deletion arrive too
      await until('the other realm delivered', () => receivedFrom(fast, other).size === 200);
      await events(h(), other, 30, 'late');
      await until('the later events delivered', () => receivedFrom(fast, other).size === 230);
      // the data centre counts a report when it arrives, the queue drops it when the answer is back: wait for that
      await vi.waitFor(async () => expect(await rowsOf(h(), other)).toEqual([]), { timeout: 20_000, interval: 20 });

      // the sends that were under way have ended (answered after the deletion): nothing came back
      await until('the slow sends answered', () => slow.received.length > 0);
      await new Promise((r) => setTimeout(r, slow.delayMs * 2));
      expect(await rowsOf(h(), doomed)).toEqual([]);
      // the deletion stopped the rest: left alone, all 40 would have gone while the other realm's 230 did
      expect(receivedFrom(slow, doomed).size).toBeLessThan(40);
      const monitor = await as(h(), token).get('/api/users/dashboard/monitor');
      expect(monitor.body.data.queue.realms.map((r: { realmId: string }) => r.realmId)).not.toContain(doomed);
    } finally {
      await delivery.stop();
    }
    expect(unhandled.slice(unhandledBefore)).toEqual([]);
  });

  it('A-45 account events written while their realm is deleted: every write succeeds, no report of the deleted realm is left', async () => {
    const token = await h().login();
    const doomed = await createRealm(h(), { backend_type: 'bigdata', backend: bigdataBackend(slow.port, 'doomed') });
    // ten writers (sign-ins, changes) keep recording the realm's events until after its deletion
    let deletedAt = 0;
    const failures: string[] = [];
    let written = 0;
    const writer = async (w: number) => {
      // yields between writes: SQLite answers without I/O, and a loop of promises alone would starve the deletion's request
      for (let i = 0; (deletedAt === 0 || i < 5) && i < 2000; i++) {
        await new Promise((r) => setImmediate(r));
        await h()
          .ctx.services.audit.record({
            realmId: doomed,
            actor: null,
            action: 'account.update',
            target: { type: 'account', id: `w${w}-${i}`, name: 'x' },
            result: 'ok',
          })
          .then(
            () => written++,
            (err: Error) => failures.push(err.message),
          );
      }
    };
    const writers = Array.from({ length: 10 }, (_, w) => writer(w));
    await until('events written', () => written >= 20);
    const deleted = await as(h(), token).delete(`/api/users/realms/${doomed}`);
    deletedAt = h().clock.now();
    await Promise.all(writers);
    expect(deleted.status).toBe(200);
    expect(failures).toEqual([]);
    expect(await rowsOf(h(), doomed)).toEqual([]);
  });
});
