/**
 * Migration 0035 on a database that already holds accounts: rows written before it are found
 * by a contains search after it (SQLite fills its trigram table from them; PostgreSQL builds
 * its indexes over them). Undone and redone here, as a database migrated up from 0034 meets it
 * (0036, which replaces two of its PostgreSQL indexes, with it).
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { as, createRealm } from '../../test/kit.js';
import { personsPath, seedPersons } from '../../directory/person.testkit.js';
import * as m0035 from './0035_account_contains_search.js';
import * as m0036 from './0036_account_contains_punctuation.js';

describeBothDbs('migration 0035: contains search indexes', (h) => {
  it('finds accounts written before it, and those written after', async () => {
    const token = await h().login();
    const realmId = await createRealm(h());
    const db = h().dbh.db;
    const names = async () => {
      const res = await as(h(), token).get(`${personsPath(realmId)}?q=ndrom&match=contains&sort=username&order=asc`);
      if (!res.body.data) throw new Error(JSON.stringify(res.body));
      return res.body.data.items.map((i: { username: string }) => i.username);
    };
    await m0036.down(db);
    await m0035.down(db);
    // written while the schema is as it was before 0035 (the list itself needs 0035)
    await seedPersons(h(), realmId, 3, (i) => ({ username: ['andromeda', 'andrew', 'nebula_andromedae'][i] }));
    await m0035.up(db);
    await m0036.up(db);
    expect(await names()).toEqual(['andromeda', 'nebula_andromedae']);
    // and kept in step from then on
    await seedPersons(h(), realmId, 1, () => ({ username: 'xandromx' }));
    expect(await names()).toEqual(['andromeda', 'nebula_andromedae', 'xandromx']);
  });
});
