/**
 * Accounts made by the CSV person import (issue 11) are account events of a bigdata realm
 * (issue 14) like any other: the import records one audit row for the whole file, and each
 * account it created is still reported to the data centre as registered, queued in the
 * import's transaction. A refused import reports nothing; a realm without a data centre
 * queues nothing. The realm's settings are read once for the file, not once per row.
 */
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import { as, createRealm, randomName } from '../../test/kit.js';
import { BIGDATA_DEFAULTS } from '../../platform/config.js';
import { bigdataBackend, linesOf, startReceiver, type Receiver } from './bigdata.testkit.js';

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
});

const queued = (h: Harness, realmId: string) => h.ctx.db.selectFrom('bigdata_events').selectAll().where('realm_id', '=', realmId).orderBy('seq').execute();

/** Delivers until `realmId` has nothing queued, moving the clock past every backoff. */
async function drain(h: Harness, realmId: string): Promise<void> {
  for (let looks = 0; (await queued(h, realmId)).length > 0; looks++) {
    if (looks > 50) throw new Error('the queue does not drain');
    await h.ctx.services.bigdata.tick();
    h.clock.advance(BIGDATA_DEFAULTS.retryMaxMs);
  }
}

const importCsv = (h: Harness, token: string, realmId: string, csv: string) =>
  as(h, token).post(`/api/users/realms/${realmId}/accounts/import`, csv, { headers: { 'content-type': 'text/csv' } });

const csvOf = (names: string[], extra: string[] = []) => ['userName,email,phone', ...names.map((n) => `${n},${n}@example.test,`), ...extra].join('\n');

describeBothDbs(
  'data centre events of the CSV person import (issue 14)',
  (h) => {
    let token: string;
    beforeAll(async () => {
      token = await h().login();
    });
    const bigdataRealm = () => createRealm(h(), { backend_type: 'bigdata', backend: bigdataBackend(receiver.port, 'imports') });

    it('an import of 3 people in a bigdata realm delivers one registered event per account, with one read of the realm', async () => {
      const realmId = await bigdataRealm();
      const names = [randomName('ia'), randomName('ib'), randomName('ic')];
      const realmReads = vi.spyOn(h().ctx.repos.realms, 'findRealmById');
      let res;
      let readsInTransaction;
      try {
        res = await importCsv(h(), token, realmId, csvOf(names));
        readsInTransaction = realmReads.mock.calls.filter((c) => c[1] !== undefined).length;
      } finally {
        realmReads.mockRestore();
      }
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ created: 3 });
      // inside the import's transaction the realm's settings are read once, whatever the row count
      expect(readsInTransaction).toBe(1);
      expect(await queued(h(), realmId)).toHaveLength(3);

      await drain(h(), realmId);
      const accounts = await h().ctx.db.selectFrom('accounts').select(['id', 'username']).where('realm_id', '=', realmId).execute();
      expect(accounts.map((a) => a.username).sort()).toEqual([...names].sort());
      expect(receiver.received).toHaveLength(3);
      const lines = linesOf(receiver.received);
      for (const a of accounts) {
        expect(lines.get(a.id)).toEqual([
          expect.objectContaining({
            kind: 'registered',
            action: 'account.import',
            category: 'imports',
            realmId,
            accountName: a.username,
            accountType: 'person',
          }),
        ]);
      }
      // ids and names only: no address of the file reaches the data centre
      expect(JSON.stringify(receiver.received)).not.toContain('@example.test');
    });

    it('the events of imported accounts keep their order with the events that follow', async () => {
      const realmId = await bigdataRealm();
      const name = randomName('io');
      expect((await importCsv(h(), token, realmId, csvOf([name]))).status).toBe(200);
      const account = (await h().ctx.repos.accounts.findAccountByUsername(realmId, name))!;
      expect((await as(h(), token).post(`/api/users/realms/${realmId}/accounts/${account.id}/disable`, {})).status).toBe(200);
      await drain(h(), realmId);
      expect(
        linesOf(receiver.received)
          .get(account.id)!
          .map((r) => r.kind),
      ).toEqual(['registered', 'disabled']);
    });

    it('a realm without a data centre queues nothing for an import', async () => {
      const realmId = await createRealm(h());
      expect((await importCsv(h(), token, realmId, csvOf([randomName('in'), randomName('in')]))).status).toBe(200);
      expect(await queued(h(), realmId)).toHaveLength(0);
    });

    it('a refused import (a bad row, a name the realm has) and a dry run deliver nothing', async () => {
      const realmId = await bigdataRealm();
      const bad = await importCsv(h(), token, realmId, csvOf([randomName('ix'), randomName('ix')], ['x,not-an-address,']));
      expect(bad.body).toMatchObject({ code: 1041 });
      const taken = randomName('it');
      expect((await importCsv(h(), token, realmId, csvOf([taken]))).status).toBe(200);
      await drain(h(), realmId);
      receiver.received = [];
      const again = await importCsv(h(), token, realmId, csvOf([randomName('iy'), taken]));
      expect(again.body).toMatchObject({ code: 1041 });
      const dry = await as(h(), token).post(`/api/users/realms/${realmId}/accounts/import?dryRun=1`, csvOf([randomName('iz')]), {
        headers: { 'content-type': 'text/csv' },
      });
      expect(dry.body.data).toMatchObject({ dryRun: true, created: 0 });
      expect(await queued(h(), realmId)).toHaveLength(0);
      await h().ctx.services.bigdata.tick();
      expect(receiver.received).toHaveLength(0);
    });
  },
  { BIGDATA_ALLOW_PRIVATE_NETWORK: 'true' },
);
