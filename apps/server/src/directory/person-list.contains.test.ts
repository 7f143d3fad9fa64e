/**
 * The person list's "contains" search on both databases (issue 11, migration 0035): answered
 * from trigram indexes for texts of three characters or more, it finds exactly the rows a plain
 * scan finds — for texts of 1, 2 and 3+ characters, with `%`, `_` and `\` taken as typed — in
 * every sort and order, page by page, and stays in step with renames, deletes and new rows.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { parseCsv } from '../platform/csv.js';
import { describeBothDbs } from '../test/harness.js';
import { as, createRealm } from '../test/kit.js';
import { personsPath, seedPersons } from './person.testkit.js';

interface Page {
  items: { id: string; username: string }[];
  total: number;
  totalCapped: boolean;
  nextCursor: string | null;
  prevCursor: string | null;
}

/** User names and e-mails with the characters LIKE treats specially, and ones that look alike. */
const NAMES = [
  'ann_lee',
  'annXlee',
  'ann%lee',
  'ann\\lee',
  'ann\\\\x',
  '100%_sure',
  '100x_sure',
  'joanna',
  'Hannah_Li',
  'li_wei',
  'LIWEI',
  'wei.li',
  'zed',
  'o"neil',
  'ab',
  'q',
];
const mail = (i: number) => (i % 3 === 0 ? `${NAMES[i]!.replace(/[\\%]/g, 'x').toLowerCase()}.${i}@mail.test` : i % 3 === 1 ? `p${i}@an_n.test` : null);
const phone = (i: number) => (i % 2 === 0 ? `+86139${String(1000 + i * 37).padStart(8, '0')}` : null);

describeBothDbs('person accounts: contains search', (h) => {
  const get = async (token: string, realmId: string, query: string): Promise<Page> => {
    const res = await as(h(), token).get(`${personsPath(realmId)}?${query}`);
    if (res.status !== 200) throw new Error(`${query}: ${JSON.stringify(res.body)}`);
    return res.body.data as Page;
  };

  /** Every page forwards, then every page backwards from the last: the user names of each. */
  async function walk(token: string, realmId: string, query: string) {
    const forward: string[] = [];
    let page = await get(token, realmId, query);
    forward.push(...page.items.map((i) => i.username));
    while (page.nextCursor) {
      page = await get(token, realmId, `${query}&cursor=${page.nextCursor}`);
      forward.push(...page.items.map((i) => i.username));
    }
    const backward: string[] = [...page.items.map((i) => i.username)];
    while (page.prevCursor) {
      page = await get(token, realmId, `${query}&cursor=${page.prevCursor}`);
      backward.unshift(...page.items.map((i) => i.username));
    }
    return { forward, backward };
  }

  /** The realm of NAMES (times 1 s apart), and a second realm holding the same texts. */
  async function realms() {
    const base = h().clock.now();
    const realmId = await createRealm(h());
    const other = await createRealm(h());
    for (const r of [realmId, other])
      await seedPersons(h(), r, NAMES.length, (i) => ({ username: NAMES[i], email: mail(i), phone: phone(i), now: base + i * 1000 }));
    const rows = await h()
      .ctx.db.selectFrom('accounts')
      .select(['id', 'username', 'username_norm', 'email_norm', 'phone', 'created_at'])
      .where('realm_id', '=', realmId)
      .execute();
    return { realmId, rows };
  }

  /** User names in the list's order by name (folded, byte order). */
  const byName = (rows: readonly { username: string; username_norm: string }[]) =>
    [...rows].sort((a, b) => (a.username_norm < b.username_norm ? -1 : 1)).map((r) => r.username);

  /** The rows a scan finds: the text (folded) inside the user name, the e-mail, the phone's digits or the id. */
  function scan(rows: Awaited<ReturnType<typeof realms>>['rows'], q: string, field: Field) {
    const t = q.toLowerCase();
    const digits = q.replace(/[\s-]/g, '');
    return rows.filter(
      (r) =>
        ((field === 'any' || field === 'username') && r.username_norm.includes(t)) ||
        ((field === 'any' || field === 'email') && (r.email_norm ?? '').includes(t)) ||
        ((field === 'any' || field === 'phone') && /^\+?\d+$/.test(digits) && (r.phone ?? '').includes(digits)) ||
        ((field === 'any' || field === 'id') && /^[a-z0-9]+$/.test(t) && r.id.includes(t)),
    );
  }

  type Field = 'any' | 'username' | 'email' | 'phone' | 'id';
  /** The list, searched for each text in each field, answers what a scan finds (its items and its total). */
  async function expectScanAnswers(
    token: string,
    realmId: string,
    rows: Awaited<ReturnType<typeof realms>>['rows'],
    texts: readonly string[],
    fields: readonly Field[],
  ) {
    for (const q of texts)
      for (const field of fields) {
        const expected = byName(scan(rows, q, field));
        const page = await get(token, realmId, `q=${encodeURIComponent(q)}&field=${field}&match=contains&sort=username&order=asc&limit=100`);
        expect(
          page.items.map((i) => i.username),
          `${q} in ${field}`,
        ).toEqual(expected);
        expect(page.total, `${q} in ${field}`).toBe(expected.length);
      }
  }

  it('finds what a scan finds for texts of 1, 2 and 3+ characters, with %, _ and \\ as typed, in every field', async () => {
    const token = await h().login();
    const { realmId, rows } = await realms();
    const texts = [
      '_',
      '%',
      '\\',
      'q',
      'li',
      'n_',
      'n%',
      'n\\',
      '\\\\',
      'ann',
      'n_l',
      'n%l',
      'n\\l',
      '0%_',
      'LEE',
      'wei',
      'an_n',
      'nna',
      '139',
      '3900',
      '1074',
      'mail.test',
      'xyz',
      'li_w',
      'o"n',
      '"ne',
    ];
    const idPart = rows[4]!.id.slice(5, 12);
    await expectScanAnswers(token, realmId, rows, [...texts, idPart], ['any', 'username', 'email', 'phone', 'id']);
    // some of those find something, in each field
    expect(scan(rows, 'n_l', 'username').map((r) => r.username)).toEqual(['ann_lee']);
    expect(scan(rows, 'an_n', 'email')).toHaveLength(5);
    expect(scan(rows, '1074', 'phone').length).toBeGreaterThan(0);
  });

  it('texts with punctuation (indexed with letters in its place on PostgreSQL) find what a scan finds, and no look-alike', async () => {
    const token = await h().login();
    const realmId = await createRealm(h());
    // each punctuated name beside one holding the letter that stands in for its punctuation
    // in PostgreSQL's index (migration 0036: . _ @ - + read as q x z j v)
    const names = [
      'maria.ivanova',
      'mariaqivanova',
      'a.iv',
      'aqiv',
      'wei_yang',
      'weixyang',
      'li-na',
      'lijna',
      'k+tag',
      'kvtag',
      'x@y',
      'xzy',
      'dot..dot',
      'q.x_z',
    ];
    const emails = [
      'ann.lee+news@mail-box.test',
      'annqlee@mailjbox.test',
      'a_b@c.test',
      'axbzc.test',
      null,
      null,
      'li-na@x.test',
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ];
    await seedPersons(h(), realmId, names.length, (i) => ({ username: names[i], email: emails[i] }));
    const rows = await h()
      .ctx.db.selectFrom('accounts')
      .select(['id', 'username', 'username_norm', 'email_norm', 'phone', 'created_at'])
      .where('realm_id', '=', realmId)
      .execute();
    const texts = [
      'a.iv',
      'aqiv',
      '.iv',
      'a.i',
      'i_y',
      'ixy',
      '_yan',
      'i-n',
      'ijn',
      '+ta',
      'vta',
      '@y',
      'x@y',
      'xzy',
      '..',
      '...',
      'q.x',
      'q.x_',
      '.x_z',
      'e+news@',
      'x@mail',
      'l-b',
      'lee+',
      '@c.t',
      'b@c',
      'a_b@',
      'a.i_',
    ];
    await expectScanAnswers(token, realmId, rows, texts, ['any', 'username', 'email']);
    // what the look-alikes would wrongly have matched
    expect(byName(scan(rows, 'a.iv', 'username'))).toEqual(['a.iv', 'maria.ivanova']);
    expect(byName(scan(rows, 'e+news@', 'email'))).toEqual(['maria.ivanova']);
    // read in order (many matches) and from the indexes alike
    for (const q of ['a.iv', '_yan', 'x@y', 'lee+'])
      for (const common of [false, true]) {
        const found = await h().ctx.repos.accounts.listPersons({
          realmId,
          q,
          field: 'any',
          match: 'contains',
          sort: 'username',
          order: 'asc',
          limit: 30,
          common,
        });
        expect(
          found.map((r) => r.username),
          `${q} common=${common}`,
        ).toEqual(byName(scan(rows, q, 'any')));
      }
  });

  it('pages through a contains search in both sorts and orders, forwards and backwards, with filters beside it', async () => {
    const token = await h().login();
    const { realmId, rows } = await realms();
    for (const q of ['li', 'ann', 'an_n']) {
      const matches = scan(rows, q, 'any');
      const byCreated = [...matches].sort((a, b) => Number(a.created_at) - Number(b.created_at)).map((r) => r.username);
      const orders: Record<string, string[]> = {
        'sort=created&order=asc': byCreated,
        'sort=created&order=desc': [...byCreated].reverse(),
        'sort=username&order=asc': byName(matches),
        'sort=username&order=desc': byName(matches).reverse(),
      };
      for (const [query, order] of Object.entries(orders)) {
        const { forward, backward } = await walk(token, realmId, `q=${encodeURIComponent(q)}&match=contains&${query}&limit=2`);
        expect(forward, `${q} ${query}`).toEqual(order);
        expect(backward, `${q} ${query}`).toEqual(order);
      }
      const from = Math.min(...rows.map((r) => Number(r.created_at))) + 5000;
      const later = await get(token, realmId, `q=${encodeURIComponent(q)}&match=contains&createdFrom=${from}&sort=username&order=asc&limit=100`);
      expect(later.items.map((i) => i.username)).toEqual(byName(matches.filter((r) => Number(r.created_at) >= from)));
    }
  });

  it('reads the same rows from the trigram indexes as in order (the way a search with many matches is read)', async () => {
    const { realmId } = await realms();
    for (const q of ['ann', 'lee', 'an_n', 'n\\l', 'mail.test'])
      for (const [sort, order] of [
        ['created', 'desc'],
        ['username', 'asc'],
      ] as const) {
        const read = (common: boolean) =>
          h()
            .ctx.repos.accounts.listPersons({ realmId, q, field: 'any', match: 'contains', sort, order, limit: 30, common })
            .then((r) => r.map((x) => x.username));
        const found = await read(false);
        expect(found, `${q} ${sort}`).toEqual(await read(true));
        expect(found.length, q).toBeGreaterThan(0);
      }
  });

  it('follows renames, deletes and new accounts', async () => {
    const token = await h().login();
    const { realmId, rows } = await realms();
    // by user name only: a random id could hold the text too
    const names = async (q: string) =>
      (await get(token, realmId, `q=${q}&field=username&match=contains&sort=username&order=asc&limit=100`)).items.map((i) => i.username);
    const joanna = rows.find((r) => r.username === 'joanna')!;
    await h().ctx.db.updateTable('accounts').set({ username: 'joelle', username_norm: 'joelle' }).where('id', '=', joanna.id).execute();
    expect(await names('oanna')).toEqual([]);
    expect(await names('oell')).toEqual(['joelle']);
    const zed = rows.find((r) => r.username === 'zed')!;
    await h().ctx.db.deleteFrom('accounts').where('id', '=', zed.id).execute();
    expect(await names('zed')).toEqual([]);
    await seedPersons(h(), realmId, 1, () => ({ username: 'zedekiah' }));
    expect(await names('zed')).toEqual(['zedekiah']);
    // other columns written (as a sign-in does) change nothing
    await h().ctx.db.updateTable('accounts').set({ last_login_at: h().clock.now() }).where('realm_id', '=', realmId).execute();
    expect(await names('ann')).toEqual(['ann%lee', 'ann\\\\x', 'ann\\lee', 'ann_lee', 'annXlee', 'Hannah_Li']);
  });

  it('a page past the last match (its rows deleted meanwhile) is empty and still counts what matches', async () => {
    const token = await h().login();
    const { realmId } = await realms();
    const query = 'q=ann&field=username&match=contains&sort=username&order=asc&limit=2';
    const first = await get(token, realmId, query);
    expect(first.total).toBeGreaterThan(2);
    const shown = first.items.map((i) => i.id);
    await h().ctx.db.deleteFrom('accounts').where('realm_id', '=', realmId).where('username_norm', 'like', '%ann%').where('id', 'not in', shown).execute();
    const next = await get(token, realmId, `${query}&cursor=${first.nextCursor}`);
    expect(next).toMatchObject({ items: [], total: 2, totalCapped: false, nextCursor: null });
  });

  it('a search with thousands of matches: its pages in both sorts and its CSV export hold every match once, in order', async () => {
    const token = await h().login();
    const realmId = await createRealm(h());
    const base = h().clock.now();
    // 3,200 matches of "mid" (more than the service gathers from the indexes), 300 others; times tie in fives
    await seedPersons(h(), realmId, 3500, (i) => ({ username: i % 35 < 32 ? `a${(i * 7919) % 3500}_mid_${i}` : `other_${i}`, now: base + Math.floor(i / 5) }));
    const rows = await h().ctx.db.selectFrom('accounts').select(['id', 'username', 'username_norm', 'created_at']).where('realm_id', '=', realmId).execute();
    const matches = rows.filter((r) => r.username.includes('_mid_'));
    expect(matches).toHaveLength(3200);
    const newest = [...matches].sort((a, b) => Number(b.created_at) - Number(a.created_at) || (a.id < b.id ? 1 : -1));
    const first = await get(token, realmId, 'q=_MID_&match=contains&sort=created&order=desc&limit=50');
    expect(first).toMatchObject({ total: 3200, totalCapped: false });
    expect(first.items.map((i) => i.id)).toEqual(newest.slice(0, 50).map((r) => r.id));
    const second = await get(token, realmId, `q=_MID_&match=contains&sort=created&order=desc&limit=50&cursor=${first.nextCursor}`);
    expect(second.items.map((i) => i.id)).toEqual(newest.slice(50, 100).map((r) => r.id));
    // the total counts every match, not those after the cursor
    expect(second).toMatchObject({ total: 3200, totalCapped: false });
    const byNameFirst = await get(token, realmId, 'q=_mid_&field=username&match=contains&sort=username&order=asc&limit=50');
    expect(byNameFirst.items.map((i) => i.username)).toEqual(byName(matches).slice(0, 50));
    const res = await as(h(), token).get(`${personsPath(realmId)}/export.csv?q=_mid_&match=contains&sort=created&order=desc`);
    expect(res.status).toBe(200);
    const ids = [...parseCsv(res.text)].slice(1).map((r) => r.cells[0]);
    expect(ids).toEqual(newest.map((r) => r.id));
  });

  it('SQLite: still right after VACUUM, with rows deleted in between (the trigram table is keyed by rowid)', async () => {
    if (h().dialect !== 'sqlite') return;
    const token = await h().login();
    const { realmId, rows } = await realms();
    // by user name only: a random id could hold the text too
    const names = async (q: string) =>
      (await get(token, realmId, `q=${q}&field=username&match=contains&sort=username&order=asc&limit=100`)).items.map((i) => i.username);
    const gone = rows.filter((r) => ['annXlee', 'li_wei', 'q'].includes(r.username)).map((r) => r.id);
    await h().ctx.db.deleteFrom('accounts').where('id', 'in', gone).execute();
    await sql`vacuum`.execute(h().ctx.db);
    expect(await names('lee')).toEqual(['ann%lee', 'ann\\lee', 'ann_lee']);
    const wei = rows.find((r) => r.username === 'wei.li')!;
    await h().ctx.db.deleteFrom('accounts').where('id', '=', wei.id).execute();
    await seedPersons(h(), realmId, 1, () => ({ username: 'weimar' }));
    expect(await names('wei')).toEqual(['LIWEI', 'weimar']);
  });
});
