/**
 * Ali Living linking under races (issue 14), on both databases, through the local stand-in
 * gateway: a burst of first sign-ins of one account, and two server processes linking the same
 * accounts at once (one of them unable to reach the gateway). Whatever the order, each account
 * has exactly one link row, a link once made is never overwritten by a failure, no sign-in
 * answers a 500 and the unique key never surfaces.
 */
import { beforeEach, expect, it } from 'vitest';
import type { Harness } from '../../test/harness.js';
import { describeBothDbs } from '../../test/harness.js';
import { createPerson, createRealm, signIn } from '../../test/kit.js';
import { createAliLivingService } from './aliliving.service.js';
import { createLivingApi } from './living-api.js';
import { startStandIn } from './living-standin.testkit.js';

const GROUP = { type: 'aliliving', enable: true, appCloudKey: 'cloud-key-races', projectRes: 'a777', appKey: 'living-key-races' } as const;
const SECRET = 'ali-Secret-race-5';

// The server's configuration names the stand-in (ALILIVING_API_URL): it listens first (as in aliliving.test.ts).
let clockNow = Date.now;
const standIn = await startStandIn({
  appKey: GROUP.appCloudKey,
  appSecret: SECRET,
  projectRes: GROUP.projectRes,
  openIdAppKey: GROUP.appKey,
  now: () => clockNow(),
});
const ALILIVING_ENV = { ALILIVING_API_URL: standIn.url, ALILIVING_ALLOW_PRIVATE_NETWORK: 'true' };

const aliRealm = (h: Harness) =>
  createRealm(h, { backend_type: 'aliliving', backend: { ...GROUP, appCloudSecret: h.ctx.secrets.encrypt(SECRET) }, backend_realm_id: 'tenant-r' });

const linksOf = (h: Harness, realmId: string) => h.dbh.db.selectFrom('aliliving_links').selectAll().where('realm_id', '=', realmId).execute();

/** A second server process on the same database: its own in-process state, its own gateway address. */
function otherProcess(h: Harness, baseUrl: string) {
  return createAliLivingService({
    repo: h.ctx.repos.aliLiving,
    api: createLivingApi({ baseUrl, allowPrivate: true, timeoutMs: 3000, now: () => h.clock.now() }),
    settingsOf: h.ctx.services.realmPolicy.settingsOf,
    secrets: h.ctx.secrets,
    clock: h.clock,
    log: { warn: () => undefined },
  });
}

describeBothDbs(
  'Ali Living link races',
  (h) => {
    beforeEach(() => {
      clockNow = () => h().clock.now();
    });

    it('A-31 30 parallel first sign-ins of one account: the throttle admits a few at a time (the rest 1010), never a 500; one link row, the gateway asked once', async () => {
      const realmId = await aliRealm(h());
      const person = await createPerson(h(), { realmId });
      const before = standIn.accepted.length;
      // A-31 reserves every guess before it is checked: parallel sign-ins of one account beyond the
      // free tries answer 1010 at once. Those are sent again, in parallel, until each got in.
      let waiting = Array.from({ length: 30 }, (_, i) => i);
      const seen: string[] = [];
      for (let round = 0; waiting.length > 0 && round < 15; round++) {
        const answers = await Promise.all(waiting.map((i) => signIn(h(), person, { ip: `10.81.${round}.${i + 1}` })));
        seen.push(...answers.map((r) => `${r.status} ${r.body.code}`));
        waiting = waiting.filter((_, k) => answers[k]!.status !== 200);
      }
      expect(waiting).toEqual([]);
      expect(seen.filter((o) => o !== '200 0' && o !== '400 1010')).toEqual([]);
      expect(seen.filter((o) => o === '200 0')).toHaveLength(30);
      await h().ctx.services.aliLiving.settled();
      const rows = await linksOf(h(), realmId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ account_id: person.id, identity_id: standIn.identityOf(person.id), last_error: null, next_try_at: null });
      expect(standIn.accepted.slice(before)).toEqual(['/cloud/token', '/cloud/account/getByOpenId']);
    });

    it('two processes link 30 accounts at once: one row each, all linked', async () => {
      const realmId = await aliRealm(h());
      const people = await Promise.all(Array.from({ length: 30 }, () => createPerson(h(), { realmId })));
      const other = otherProcess(h(), standIn.url);
      const mine = h().ctx.services.aliLiving;
      await Promise.all(people.flatMap((p) => [mine.link(realmId, p.id), other.link(realmId, p.id)]));
      const rows = await linksOf(h(), realmId);
      expect(rows.map((r) => r.account_id).sort()).toEqual(people.map((p) => p.id).sort());
      expect(rows.every((r) => r.identity_id === standIn.identityOf(r.account_id) && r.last_error === null)).toBe(true);
    });

    it('a failure racing a success never undoes the link; the losing failure leaves no second row', async () => {
      const realmId = await aliRealm(h());
      const people = await Promise.all(Array.from({ length: 30 }, () => createPerson(h(), { realmId })));
      // a process that cannot reach the gateway: every try of it fails (unreachable)
      const dead = otherProcess(h(), 'http://127.0.0.1:1');
      const mine = h().ctx.services.aliLiving;
      await Promise.all(people.flatMap((p) => [dead.link(realmId, p.id), mine.link(realmId, p.id), dead.link(realmId, p.id)]));
      const rows = await linksOf(h(), realmId);
      expect(rows).toHaveLength(30);
      for (const r of rows) expect(r).toMatchObject({ identity_id: standIn.identityOf(r.account_id), last_error: null, next_try_at: null });
      // nothing is due for the retry job: linked rows are never retried
      expect((await h().ctx.repos.aliLiving.listDue(h().clock.now() + 7 * 86_400_000, 100)).filter((r) => r.realm_id === realmId)).toEqual([]);
    });
  },
  ALILIVING_ENV,
);
