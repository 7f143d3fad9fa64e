/**
 * Migration 0036 on a database that already holds accounts: rows written before it are found
 * by a punctuated contains search after it (PostgreSQL builds its indexes over them; SQLite is
 * unchanged). Undone and redone here, as a database migrated up from 0035 meets it.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { as, createRealm } from '../../test/kit.js';
import { personsPath, seedPersons } from '../../directory/person.testkit.js';
import * as m0036 from './0036_account_contains_punctuation.js';

describeBothDbs('migration 0036: contains search indexes over punctuation', (h) => {
  it('finds accounts written before it, and those written after', async () => {
    const token = await h().login();
    const realmId = await createRealm(h());
    const db = h().dbh.db;
    const names = async (q: string) => {
      const res = await as(h(), token).get(`${personsPath(realmId)}?q=${encodeURIComponent(q)}&match=contains&sort=username&order=asc`);
      if (!res.body.data) throw new Error(JSON.stringify(res.body));
      return res.body.data.items.map((i: { username: string }) => i.username);
    };
    await m0036.down(db);
    await seedPersons(h(), realmId, 3, (i) => ({ username: ['maria.ivanova', 'mariaqivanova', 'ivan_a.iv'][i], email: i === 0 ? 'm.i+x@a-b.test' : null }));
    await m0036.up(db);
    expect(await names('a.iv')).toEqual(['ivan_a.iv', 'maria.ivanova']);
    expect(await names('i+x@a-')).toEqual(['maria.ivanova']);
    await seedPersons(h(), realmId, 1, () => ({ username: 'xa.ivx' }));
    expect(await names('a.iv')).toEqual(['ivan_a.iv', 'maria.ivanova', 'xa.ivx']);
  });
});
