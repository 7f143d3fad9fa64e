/**
 * The account tallies (migration 0037) against the accounts themselves, on both databases:
 * whatever writes accounts — one at a time, in bulk, concurrently, by cascade, in a transaction
 * that rolls back — every realm's tally per kind, disabled and activated equals a count of its
 * rows, and PostgreSQL's fold keeps it so while writers go on.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { recountTallies } from '../platform/migrations/0037_account_tallies.js';
import { describeBothDbs, type Harness } from '../test/harness.js';
import { createPerson, createRealm, createService, randomName } from '../test/kit.js';
import { seedPersons } from '../directory/person.testkit.js';

type Combination = { realm_id: string; kind: string; disabled: number; activated: number; n: number };

const key = (c: Omit<Combination, 'n'>) => `${c.realm_id}|${c.kind}|${Number(c.disabled)}|${Number(c.activated)}`;

/** Every combination's tally and its accounts counted, non-zero ones only, by key. */
async function both(h: Harness) {
  const tallied = await sql<Combination>`
    select realm_id, kind, disabled, activated, sum(n) as n from account_tallies
    group by realm_id, kind, disabled, activated`.execute(h.ctx.db);
  const counted = await sql<Combination>`
    select realm_id, kind, disabled, activated, count(*) as n from accounts
    group by realm_id, kind, disabled, activated`.execute(h.ctx.db);
  const asMap = (rows: Combination[]) => Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [key(r), Number(r.n)]));
  return { tallied: asMap(tallied.rows), counted: asMap(counted.rows) };
}

async function expectExact(h: Harness, label: string) {
  const { tallied, counted } = await both(h);
  expect(tallied, label).toEqual(counted);
}

const realmRows = async (h: Harness, realmId: string) =>
  Number((await sql<{ n: number }>`select count(*) as n from account_tallies where realm_id = ${realmId}`.execute(h.ctx.db)).rows[0]!.n);

describeBothDbs('account tallies', (h) => {
  it('follow single and bulk inserts, service accounts, status and activation changes, deletes and a realm deleted by cascade', async () => {
    const a = await createRealm(h());
    const b = await createRealm(h());
    await expectExact(h(), 'start');
    const owner = await createPerson(h(), { realmId: a, password: null });
    await createService(h(), owner, 'robot1');
    const ids = await seedPersons(h(), a, 300, (i) => ({ disabled: i % 7 === 0, activated: i % 3 !== 0 }));
    await seedPersons(h(), b, 40);
    await expectExact(h(), 'inserted');
    const now = h().clock.now();
    const accounts = h().ctx.repos.accounts;
    await accounts.setPersonsDisabled(a, ids.slice(0, 50), true, now);
    await accounts.setPersonsDisabled(a, ids.slice(0, 20), false, now);
    for (const id of ids.slice(100, 110)) await accounts.activateAccount(a, id, now);
    // a change of nothing counted (sign-in bookkeeping) writes no tally
    const before = await realmRows(h(), a);
    await accounts.recordSignIn(a, ids[200]!, now, '86');
    expect(await realmRows(h(), a)).toBe(before);
    await expectExact(h(), 'updated');
    await accounts.deletePersons(a, ids.slice(250));
    await expectExact(h(), 'deleted');
    expect(await accounts.tallyPersons({ realmId: a })).toBe(251);
    expect(await accounts.tallyPersons({ realmId: b })).toBe(40);
    // the realm goes, and its accounts with it (ON DELETE CASCADE)
    expect(await h().ctx.repos.realms.deleteRealm(a)).toBe(true);
    await expectExact(h(), 'realm deleted');
    expect(await accounts.tallyPersons({ realmId: a })).toBe(0);
    await accounts.foldTallies();
    expect(await realmRows(h(), a)).toBe(0);
    expect(await accounts.tallyPersons({ realmId: b })).toBe(40);
  });

  it('a transaction that rolls back leaves the tallies as they were', async () => {
    const realmId = await createRealm(h());
    await seedPersons(h(), realmId, 5);
    const accounts = h().ctx.repos.accounts;
    await expect(
      h()
        .ctx.db.transaction()
        .execute(async (trx) => {
          await accounts.insertPerson({ realmId, username: randomName('r'), passwordHash: null, now: h().clock.now() }, trx);
          expect(await accounts.tallyPersons({ realmId }, trx)).toBe(6);
          throw new Error('roll back');
        }),
    ).rejects.toThrow('roll back');
    expect(await accounts.tallyPersons({ realmId })).toBe(5);
    await expectExact(h(), 'rolled back');
  });

  it('300 concurrent sign-ups, status changes and deletes in one realm, with folds among them: every one succeeds and the tallies stay exact', async () => {
    const realmId = await createRealm(h());
    const accounts = h().ctx.repos.accounts;
    const ids = await seedPersons(h(), realmId, 100);
    const now = h().clock.now();
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 300; i++) {
      if (i % 3 === 0) work.push(accounts.insertPerson({ realmId, username: randomName('c'), passwordHash: null, activated: i % 2 === 0, now }));
      else if (i % 3 === 1) work.push(accounts.setPersonsDisabled(realmId, [ids[i % 100]!], i % 2 === 0, now));
      else if (i % 30 === 2) work.push(accounts.deletePersons(realmId, [ids[(i * 7) % 100]!]));
      else work.push(accounts.foldTallies());
    }
    const results = await Promise.allSettled(work);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    await expectExact(h(), 'after the storm');
    await accounts.foldTallies();
    await expectExact(h(), 'folded');
  });

  it('fold leaves one row per combination (PostgreSQL), recount rebuilds lost tallies from the accounts', async () => {
    const realmId = await createRealm(h());
    const accounts = h().ctx.repos.accounts;
    for (let i = 0; i < 5; i++) await seedPersons(h(), realmId, 3, () => ({ disabled: i % 2 === 0 }));
    await accounts.foldTallies();
    const rows = await sql<{ n: number }>`select count(*) as n from account_tallies where realm_id = ${realmId}`.execute(h().ctx.db);
    expect(Number(rows.rows[0]!.n)).toBe(2);
    expect(await accounts.tallyPersons({ realmId, disabled: true })).toBe(9);
    expect(await accounts.tallyPersons({ realmId, disabled: false })).toBe(6);
    // a load that bypassed the triggers (as with session_replication_role = replica), then the recount
    await h().ctx.db.deleteFrom('account_tallies').execute();
    expect(await accounts.tallyPersons({ realmId })).toBe(0);
    await recountTallies(h().ctx.db);
    await expectExact(h(), 'recounted');
    expect(await accounts.tallyPersons({ realmId })).toBe(15);
  });
});
