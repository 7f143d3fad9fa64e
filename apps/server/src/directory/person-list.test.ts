/**
 * The person account list over HTTP on both databases (issue 11): keyset pages in both
 * directions and both sorts, ties on the sort key broken by id, prefix and "contains" search
 * per field, filters, and totals (exact from the tallies without a search or a date filter,
 * otherwise exact up to 10,000 and capped beyond).
 */
import { expect, it } from 'vitest';
import { describeBothDbs, type Harness } from '../test/harness.js';
import { as, createRealm } from '../test/kit.js';
import { personsPath, seedPersons } from './person.testkit.js';

interface Page {
  items: { id: string; username: string; email: string | null; phone: string | null; disabled: boolean; activated: boolean; createdAt: number }[];
  total: number;
  totalCapped: boolean;
  nextCursor: string | null;
  prevCursor: string | null;
}

/** User names in each sort and order the list offers (ties on time broken by id), by query string. */
function expectedOrders(rows: readonly { id: string; username: string; created_at: number | string }[]): Record<string, string[]> {
  const byCreated = [...rows].sort((a, b) => Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : 1)).map((r) => r.username);
  const byName = rows.map((r) => r.username).sort();
  return {
    'sort=created&order=asc': byCreated,
    'sort=created&order=desc': [...byCreated].reverse(),
    'sort=username&order=asc': byName,
    'sort=username&order=desc': [...byName].reverse(),
  };
}

describeBothDbs('person accounts: list', (h) => {
  const get = async (token: string, realmId: string, query: string): Promise<Page> => {
    const res = await as(h(), token).get(`${personsPath(realmId)}?${query}`);
    if (res.status !== 200) throw new Error(`${query}: ${JSON.stringify(res.body)}`);
    return res.body.data as Page;
  };

  /** Every page forwards from the first, then every page backwards from the last: both must give the same rows. */
  async function walk(token: string, realmId: string, query: string) {
    const forward: string[][] = [];
    let page = await get(token, realmId, query);
    expect(page.prevCursor).toBeNull();
    forward.push(page.items.map((i) => i.username));
    while (page.nextCursor) {
      page = await get(token, realmId, `${query}&cursor=${page.nextCursor}`);
      forward.push(page.items.map((i) => i.username));
    }
    const backward: string[][] = [page.items.map((i) => i.username)];
    while (page.prevCursor) {
      page = await get(token, realmId, `${query}&cursor=${page.prevCursor}`);
      backward.unshift(page.items.map((i) => i.username));
    }
    return { forward, backward };
  }

  /** 23 persons: created at 5 distinct times (ties of up to 5), names out of creation order. */
  async function tiedRealm(hh: Harness) {
    const realmId = await createRealm(hh);
    const base = hh.clock.now();
    const names = Array.from({ length: 23 }, (_, i) => `user_${String((i * 7) % 23).padStart(2, '0')}`);
    await seedPersons(hh, realmId, 23, (i) => ({ username: names[i], now: base + Math.floor(i / 5) * 1000 }));
    return realmId;
  }

  it('keyset pages by creation time and by user name, both orders, cover every row once and read the same backwards', async () => {
    const token = await h().login();
    const realmId = await tiedRealm(h());
    const rows = await h().ctx.db.selectFrom('accounts').select(['id', 'username', 'created_at']).where('realm_id', '=', realmId).execute();
    const expected = expectedOrders(rows);
    for (const [query, order] of Object.entries(expected)) {
      const { forward, backward } = await walk(token, realmId, `${query}&limit=4`);
      expect(forward.flat(), query).toEqual(order);
      expect(
        forward.map((p) => p.length),
        query,
      ).toEqual([4, 4, 4, 4, 4, 3]);
      expect(backward, query).toEqual(forward);
    }
  });

  it('a page answers its total, and no next cursor on the last page', async () => {
    const token = await h().login();
    const realmId = await tiedRealm(h());
    const page = await get(token, realmId, 'limit=100');
    expect(page).toMatchObject({ total: 23, totalCapped: false, nextCursor: null, prevCursor: null });
    expect(page.items).toHaveLength(23);
    expect(JSON.stringify(page)).not.toContain('password');
  });

  it('searches by prefix of user name, email, phone (national or +86) and id, without regard to case; contains finds a middle part', async () => {
    const token = await h().login();
    const realmId = await createRealm(h());
    const [alice, , carol] = await seedPersons(h(), realmId, 3, (i) => ({
      username: ['Alice_Smith', 'bob_jones', 'carol_alice'][i],
      email: [`alice@example.test`, `bob@corp.test`, `carol@example.test`][i],
      phone: ['+8613800000001', '+8613900000002', null][i],
    }));
    const names = async (query: string) => (await get(token, realmId, `${query}&sort=username&order=asc`)).items.map((i) => i.username);
    expect(await names('q=ALI&field=username')).toEqual(['Alice_Smith']);
    expect(await names('q=ali')).toEqual(['Alice_Smith']);
    expect(await names('q=bob@c&field=email')).toEqual(['bob_jones']);
    expect(await names('q=example&field=email')).toEqual([]);
    expect(await names('q=1380000&field=phone')).toEqual(['Alice_Smith']);
    expect(await names('q=%2B86139&field=phone')).toEqual(['bob_jones']);
    expect(await names(`q=${alice!.slice(0, 10)}&field=id`)).toEqual(['Alice_Smith']);
    expect(await names(`q=${carol!.slice(0, 10).toUpperCase()}&field=id`)).toEqual(['carol_alice']);
    expect(await names('q=alice&match=contains')).toEqual(['Alice_Smith', 'carol_alice']);
    expect(await names('q=example&field=email&match=contains')).toEqual(['Alice_Smith', 'carol_alice']);
    // '%' and '_' are searched as typed, not as wildcards.
    expect(await names('q=%25&match=contains')).toEqual([]);
    expect(await names('q=_&field=username&match=contains')).toEqual(['Alice_Smith', 'bob_jones', 'carol_alice']);
    expect(await names('q=l_a&match=contains')).toEqual(['carol_alice']);
  });

  it('pages through a prefix search in both sorts and orders, forwards and backwards, each match once even when two fields match', async () => {
    const token = await h().login();
    const realmId = await createRealm(h());
    const base = h().clock.now();
    // 17 matches of "kim": 11 by user name (5 of them by e-mail too), 6 by e-mail only; ties on time; 4 others
    await seedPersons(h(), realmId, 21, (i) => ({
      username: i < 11 ? `kim_${String((i * 5) % 11).padStart(2, '0')}` : i < 17 ? `lee_${i}` : `park_${i}`,
      email: i < 5 || (i >= 11 && i < 17) ? `kim.${i}@example.test` : null,
      now: base + Math.floor(i / 4) * 1000,
    }));
    const rows = await h().ctx.db.selectFrom('accounts').select(['id', 'username', 'created_at']).where('realm_id', '=', realmId).execute();
    const matches = rows.filter((r) => !r.username.startsWith('park_'));
    const expected = expectedOrders(matches);
    for (const [query, order] of Object.entries(expected)) {
      const { forward, backward } = await walk(token, realmId, `q=KIM&${query}&limit=5`);
      expect(forward.flat(), query).toEqual(order);
      expect(backward, query).toEqual(forward);
      expect((await get(token, realmId, `q=kim&${query}&limit=5`)).total, query).toBe(17);
    }
    // a search with many matches is read in order instead (the service decides by its count): same rows
    for (const [sort, order] of [
      ['created', 'desc'],
      ['created', 'asc'],
      ['username', 'asc'],
      ['username', 'desc'],
    ] as const) {
      for (const field of ['any', 'username', 'email'] as const) {
        const read = (common: boolean) =>
          h()
            .ctx.repos.accounts.listPersons({ realmId, q: 'Kim', field, sort, order, limit: 30, common })
            .then((r) => r.map((x) => x.username));
        expect(await read(true), `${sort} ${order} ${field}`).toEqual(await read(false));
      }
    }
    // one field: the user name's 11
    const names = await walk(token, realmId, 'q=kim&field=username&sort=created&order=desc&limit=4');
    expect(names.forward.flat()).toHaveLength(11);
    expect((await get(token, realmId, 'q=kim&field=username&limit=4')).total).toBe(11);
    // with a filter beside the search
    expect((await get(token, realmId, `q=kim&createdFrom=${base + 2000}&limit=50`)).items.map((i) => i.username).sort()).toEqual(
      matches
        .filter((r) => Number(r.created_at) >= base + 2000)
        .map((r) => r.username)
        .sort(),
    );
  });

  it('filters by state, activation and registration time', async () => {
    const token = await h().login();
    const realmId = await createRealm(h());
    const t0 = h().clock.now();
    await seedPersons(h(), realmId, 4, (i) => ({
      username: ['on_new', 'off_new', 'pending_old', 'on_old'][i],
      disabled: i === 1,
      activated: i !== 2,
      now: i < 2 ? t0 + 60_000 : t0,
    }));
    const names = async (query: string) => (await get(token, realmId, `${query}&sort=username&order=asc`)).items.map((i) => i.username);
    expect(await names('status=disabled')).toEqual(['off_new']);
    expect(await names('status=enabled')).toEqual(['on_new', 'on_old', 'pending_old']);
    expect(await names('activated=no')).toEqual(['pending_old']);
    expect(await names(`createdFrom=${t0 + 1}`)).toEqual(['off_new', 'on_new']);
    expect(await names(`createdTo=${t0 + 1}`)).toEqual(['on_old', 'pending_old']);
    expect(await names(`createdFrom=${t0 + 1}&status=enabled`)).toEqual(['on_new']);
    const filtered = await get(token, realmId, 'status=enabled&limit=1');
    expect(filtered.total).toBe(3);
  });

  it('a state filter alone pages through both activations interleaved, ties included, both sorts, orders and directions', async () => {
    const token = await h().login();
    const realmId = await createRealm(h());
    const base = h().clock.now();
    // 30 persons at 8 distinct times; the disabled ones (2 in 3) alternate between activated and not
    await seedPersons(h(), realmId, 30, (i) => ({
      username: `st_${String((i * 11) % 30).padStart(2, '0')}`,
      disabled: i % 3 !== 0,
      activated: i % 2 === 0,
      now: base + Math.floor(i / 4) * 1000,
    }));
    const rows = await h()
      .ctx.db.selectFrom('accounts')
      .select(['id', 'username', 'created_at', 'disabled', 'activated'])
      .where('realm_id', '=', realmId)
      .execute();
    for (const [status, disabled] of [
      ['disabled', 1],
      ['enabled', 0],
    ] as const) {
      const expected = expectedOrders(rows.filter((r) => Number(r.disabled) === disabled));
      for (const query of Object.keys(expected)) {
        const { forward, backward } = await walk(token, realmId, `${query}&status=${status}&limit=3`);
        expect(forward.flat(), `${status} ${query}`).toEqual(expected[query]);
        expect((await get(token, realmId, `${query}&status=${status}&limit=3`)).total, `${status} ${query}`).toBe(expected[query]!.length);
        expect(backward, `${status} ${query}`).toEqual(forward);
      }
    }
    // a registration-time filter and an activation, by name (few matches: gathered and sorted)
    const from = base + 2000;
    const expected = expectedOrders(rows.filter((r) => Number(r.created_at) >= from && Number(r.activated) === 0));
    for (const query of ['sort=username&order=asc', 'sort=username&order=desc']) {
      const { forward, backward } = await walk(token, realmId, `${query}&createdFrom=${from}&activated=no&limit=2`);
      expect(forward.flat(), query).toEqual(expected[query]);
      expect((await get(token, realmId, `${query}&createdFrom=${from}&activated=no&limit=2`)).total, query).toBe(expected[query]!.length);
      expect(backward, query).toEqual(forward);
    }
  });

  it('by name under filters, the page read in name order (many matches) and the page gathered and sorted (few) are the same pages, both directions', async () => {
    // Through the API, 30 rows always take the gathered path (≤ 3,000 matches): both are asked of the repository here.
    const realmId = await createRealm(h());
    const base = h().clock.now();
    await seedPersons(h(), realmId, 40, (i) => ({
      username: `fn_${String((i * 13) % 40).padStart(2, '0')}`,
      disabled: i % 3 === 0,
      activated: i % 4 !== 1,
      now: base + Math.floor(i / 5) * 1000,
    }));
    const rows = await h()
      .ctx.db.selectFrom('accounts')
      .select(['id', 'username', 'username_norm', 'created_at', 'disabled', 'activated'])
      .where('realm_id', '=', realmId)
      .execute();
    const filters: { disabled?: boolean; activated?: boolean; createdFrom?: number; createdTo?: number }[] = [
      { disabled: true },
      { activated: false },
      { disabled: false, activated: true },
      { createdFrom: base + 2000, createdTo: base + 6000 },
      { disabled: false, createdFrom: base + 3000 },
    ];
    const accounts = h().ctx.repos.accounts;
    for (const f of filters) {
      const matching = rows.filter(
        (r) =>
          (f.disabled === undefined || Number(r.disabled) === Number(f.disabled)) &&
          (f.activated === undefined || Number(r.activated) === Number(f.activated)) &&
          (f.createdFrom === undefined || Number(r.created_at) >= f.createdFrom) &&
          (f.createdTo === undefined || Number(r.created_at) < f.createdTo),
      );
      for (const order of ['asc', 'desc'] as const) {
        const expected = matching.map((r) => r.username_norm).sort();
        if (order === 'desc') expected.reverse();
        for (const few of [false, true]) {
          const label = `${JSON.stringify(f)} ${order} few=${few}`;
          const page = (after?: { value: string; id: string }, backwards = false) =>
            accounts.listPersons({ realmId, ...f, sort: 'username', order, limit: 3, after, backwards, few });
          const forward: string[] = [];
          let last: Awaited<ReturnType<typeof page>> = await page();
          while (last.length) {
            forward.push(...last.map((r) => r.username_norm));
            const end = last[last.length - 1]!;
            last = await page({ value: end.username_norm, id: end.id });
          }
          expect(forward, label).toEqual(expected);
          // backwards from past the last row: the same rows, each page in the order asked
          const backward: string[] = [];
          const lastRow = matching.find((r) => r.username_norm === expected[expected.length - 1])!;
          let before: { value: string; id: string } | undefined = { value: lastRow.username_norm, id: lastRow.id };
          backward.unshift(expected[expected.length - 1]!);
          while (before) {
            const got = await page(before, true);
            backward.unshift(...got.map((r) => r.username_norm));
            before = got.length ? { value: got[0]!.username_norm, id: got[0]!.id } : undefined;
          }
          expect(backward, label).toEqual(expected);
        }
      }
    }
  });

  it('totals: exact at any size without a search or a date filter; a search or a date filter counts up to 10,000 and is capped beyond ("10,000+")', async () => {
    const token = await h().login();
    const realmId = await createRealm(h());
    const base = h().clock.now();
    await seedPersons(h(), realmId, 10_020, (i) => ({
      username: `bulk_${i}`,
      email: `m${i % 3}_${i}@x.example`,
      disabled: i < 10,
      activated: i % 2 === 0,
      now: base + i,
    }));
    expect(await get(token, realmId, 'limit=5')).toMatchObject({ total: 10_020, totalCapped: false });
    expect(await get(token, realmId, 'limit=5&status=disabled')).toMatchObject({ total: 10, totalCapped: false });
    expect(await get(token, realmId, 'limit=5&status=enabled&activated=yes')).toMatchObject({ total: 5005, totalCapped: false });
    expect(await get(token, realmId, 'limit=5&activated=no')).toMatchObject({ total: 5010, totalCapped: false });
    expect(await get(token, realmId, 'limit=5&q=bulk_1000')).toMatchObject({ total: 11, totalCapped: false });
    expect(await get(token, realmId, 'limit=5&q=bulk')).toMatchObject({ total: 10_000, totalCapped: true });
    // More matches than a search's page is gathered for (3,000), fewer than the cap: exact, and the page is the newest of them
    for (const field of ['email', 'any']) {
      const page = await get(token, realmId, `limit=3&q=m0_&field=${field}`);
      expect(page, field).toMatchObject({ total: 3340, totalCapped: false });
      expect(
        page.items.map((i) => i.username),
        field,
      ).toEqual(['bulk_10017', 'bulk_10014', 'bulk_10011']);
    }
    expect(await get(token, realmId, `limit=5&createdFrom=${base}`)).toMatchObject({ total: 10_000, totalCapped: true });
    expect(await get(token, realmId, `limit=5&createdFrom=${base + 10_015}`)).toMatchObject({ total: 5, totalCapped: false });
  });

  it('a cursor that is not one, or of another sort, is 1009 naming cursor; unknown query fields are 1009 too', async () => {
    const token = await h().login();
    const realmId = await tiedRealm(h());
    const first = await get(token, realmId, 'limit=2&sort=username');
    for (const query of ['cursor=abc', `cursor=${first.nextCursor}&sort=created`]) {
      const res = await as(h(), token).get(`${personsPath(realmId)}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ code: 1009, errData: { field: 'cursor' } });
    }
    const extra = await as(h(), token).get(`${personsPath(realmId)}?offset=100`);
    expect(extra.body).toMatchObject({ code: 1009, errData: { field: 'offset' } });
  });

  it('lists person accounts only, and only of the realm in the path; an unknown realm is 1004', async () => {
    const token = await h().login();
    const [a, b] = [await createRealm(h()), await createRealm(h())];
    await seedPersons(h(), a, 2);
    await seedPersons(h(), b, 3);
    expect((await get(token, a, 'limit=10')).total).toBe(2);
    expect((await get(token, b, 'limit=10')).total).toBe(3);
    const res = await as(h(), token).get(`${personsPath('no-such-realm')}`);
    expect(res.body).toMatchObject({ code: 1004 });
    // with a search, a filter or a cursor that is not one: still 1004, never an empty page
    for (const query of ['q=kim', 'q=kim&match=contains', 'q=kim&field=any', 'status=disabled&limit=1', 'cursor=not-a-cursor']) {
      expect((await as(h(), token).get(`${personsPath('no-such-realm')}?${query}`)).body, query).toMatchObject({ code: 1004 });
    }
    // a realm without persons (or without matches) is an empty page, not 1004
    const empty = await createRealm(h());
    for (const query of ['limit=10', 'q=kim', 'q=kim&match=contains']) {
      expect(await get(token, empty, query), query).toMatchObject({ items: [], total: 0, totalCapped: false, nextCursor: null, prevCursor: null });
    }
    expect((await get(token, a, 'q=nobody-has-this')).total).toBe(0);
  });
});
