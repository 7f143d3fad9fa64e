/**
 * platform/prepared.ts on both databases: a statement built once runs with each call's values
 * in their places (named values anywhere, constants kept), undefined bound as null, and on a
 * transaction when given one (rolled back with it). On PostgreSQL the connection keeps it as a
 * named server-side statement: parsed and planned once, then only bound.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { createPerson } from '../test/kit.js';
import { prepare } from './prepared.js';

describeBothDbs('prepared statements', (h) => {
  it('puts each named value in its place, keeps constants, and reads back what it wrote', async () => {
    const db = h().ctx.db;
    const realm = 'master';
    const [a, b] = [(await createPerson(h(), { realmId: realm })).id, (await createPerson(h(), { realmId: realm })).id];
    const insert = prepare<{ id: string; data: string; at: number }>(db, (p) =>
      db.insertInto('account_settings').values({ account_id: p('id'), realm_id: realm, data: p('data'), updated_at: p('at') }),
    );
    const read = prepare<{ id: string }>(db, (p) =>
      db.selectFrom('account_settings').select(['data', 'updated_at']).where('realm_id', '=', realm).where('account_id', '=', p('id')),
    );
    // the same statement text for every run: compiled once
    expect(insert.sql).toMatch(/^insert into "account_settings"/);
    await insert.run({ id: a, data: '{"a":1}', at: 5 });
    await insert.run({ id: b, data: '{"b":2}', at: 7 });
    expect((await read.run<{ data: string; updated_at: number }>({ id: a })).rows.map((r) => [r.data, Number(r.updated_at)])).toEqual([['{"a":1}', 5]]);
    expect((await read.run<{ data: string }>({ id: b })).rows.map((r) => r.data)).toEqual(['{"b":2}']);
    expect((await read.run({ id: 'prep-none' })).rows).toEqual([]);
  });

  it('a run outside any transaction is never taken into another one left open: its write outlives that rollback', async () => {
    const db = h().ctx.db;
    const realm = 'master';
    const [mine, theirs] = [(await createPerson(h(), { realmId: realm })).id, (await createPerson(h(), { realmId: realm })).id];
    const insert = prepare<{ id: string }>(db, (p) =>
      db.insertInto('account_settings').values({ account_id: p('id'), realm_id: realm, data: '{}', updated_at: 1 }),
    );
    let opened!: () => void;
    let release!: () => void;
    const isOpen = new Promise<void>((r) => (opened = r));
    const released = new Promise<void>((r) => (release = r));
    const other = db.transaction().execute(async (trx) => {
      await insert.run({ id: theirs }, trx);
      opened();
      await released;
      throw new Error('roll back');
    });
    await isOpen;
    // on SQLite the one connection is inside that transaction now: this run must wait or go apart, never join it
    const run = insert.run({ id: mine });
    release();
    await expect(other).rejects.toThrow('roll back');
    expect((await run).numAffectedRows).toBe(1n);
    const left = await db.selectFrom('account_settings').select('account_id').where('account_id', 'in', [mine, theirs]).execute();
    expect(left.map((r) => r.account_id)).toEqual([mine]);
  });

  it('runs on the transaction it is given: a rollback takes its write away', async () => {
    const db = h().ctx.db;
    const realm = 'master';
    const c = (await createPerson(h(), { realmId: realm })).id;
    const insert = prepare<{ id: string }>(db, (p) =>
      db.insertInto('account_settings').values({ account_id: p('id'), realm_id: realm, data: '{}', updated_at: 1 }),
    );
    await expect(
      db.transaction().execute(async (trx) => {
        await insert.run({ id: c }, trx);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const left = await db.selectFrom('account_settings').select('account_id').where('account_id', '=', c).execute();
    expect(left).toEqual([]);
  });

  it('on PostgreSQL, the connection keeps the statement: later runs bind it with new values', async () => {
    if (h().dialect !== 'postgres') return;
    const db = h().ctx.db;
    const realm = 'master';
    const [a, b] = [(await createPerson(h(), { realmId: realm })).id, (await createPerson(h(), { realmId: realm })).id];
    const read = prepare<{ id: string }>(db, (p) => db.selectFrom('accounts').select('id').where('realm_id', '=', realm).where('id', '=', p('id')));
    // one transaction: one connection, whose statements pg_prepared_statements lists
    const [first, second, kept] = await db
      .transaction()
      .execute(async (trx) => [
        await read.run<{ id: string }>({ id: a }, trx),
        await read.run<{ id: string }>({ id: b }, trx),
        await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement = ${read.sql}`.execute(trx),
      ]);
    expect(first.rows.map((r) => r.id)).toEqual([a]);
    expect(second.rows.map((r) => r.id)).toEqual([b]);
    expect((kept.rows[0] as { n: number }).n).toBe(1);
  });
});
