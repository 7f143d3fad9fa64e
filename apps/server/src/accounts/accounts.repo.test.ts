/**
 * The accounts repository, the one writer of the `accounts` table (issue 9): defaults of a new
 * person and service account, the one folding of names and addresses, renames that carry
 * service accounts along, listing with a search, and writes that join a transaction. Both DBs.
 */
import { expect, it } from 'vitest';
import { transactOn } from '../platform/db.js';
import { describeBothDbs } from '../test/harness.js';
import { createRealm, randomName } from '../test/kit.js';
import { normaliseEmail, normaliseUsername, type NewPerson } from './accounts.repo.js';

it('user names and addresses fold one way: NFKC, lower case, trimmed (issue 8)', () => {
  expect(normaliseUsername(' \uFF2Bate ')).toBe('kate');
  expect(normaliseUsername('\u212Aate')).toBe('kate');
  expect(normaliseEmail('Kate@Example.TEST')).toBe('kate@example.test');
});

describeBothDbs('accounts repository', (h) => {
  const repo = () => h().ctx.repos.accounts;

  it('inserts a person with the defaults and finds it by id, name, email and phone', async () => {
    const realmId = await createRealm(h());
    const now = h().clock.now();
    const p = await repo().insertPerson({ realmId, username: 'Kate_01', passwordHash: null, email: 'Kate@Example.test', phone: '+8613800000001', now });
    expect(p).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{32}$/),
      realm_id: realmId,
      kind: 'person',
      owner_id: null,
      username: 'Kate_01',
      username_norm: 'kate_01',
      email: 'Kate@Example.test',
      email_norm: 'kate@example.test',
      phone: '+8613800000001',
      password_hash: null,
      avatar: '',
      disabled: 0,
      activated: 1,
      force_password: 0,
      regist_area: '',
      last_login_at: null,
      last_login_area: '',
      created_at: now,
      updated_at: now,
    });
    expect(await repo().findAccountById(realmId, p.id)).toEqual(p);
    expect((await repo().findAccountByUsername(realmId, 'KATE_01'))?.id).toBe(p.id);
    expect((await repo().findAccountByEmail(realmId, 'kate@EXAMPLE.test'))?.id).toBe(p.id);
    expect((await repo().findAccountByPhone(realmId, '+8613800000001'))?.id).toBe(p.id);
    // realm-scoped: the same id in another realm is nobody
    expect(await repo().findAccountById('master', p.id)).toBeUndefined();
  });

  it('a service account is owner/subname, forced to set its password when asked; a rename carries it along', async () => {
    const realmId = await createRealm(h());
    const now = h().clock.now();
    const owner = await repo().insertPerson({ realmId, username: 'Owner', passwordHash: null, now });
    const svc = await repo().insertService({ owner, subname: 'Cam_1', passwordHash: 'x', forcePassword: true, now });
    expect(svc).toMatchObject({ kind: 'service', owner_id: owner.id, username: 'Owner/Cam_1', username_norm: 'owner/cam_1', force_password: 1 });
    await repo().renameAccount(realmId, owner.id, owner.username_norm, 'Boss', now);
    expect((await repo().findAccountByUsername(realmId, 'boss/cam_1'))?.id).toBe(svc.id);
    expect(await repo().findAccountByUsername(realmId, 'owner/cam_1')).toBeUndefined();
  });

  it('lists newest first with paging, a kind and a search in name, email or phone; counts the same', async () => {
    const realmId = await createRealm(h());
    const tag = randomName('t');
    const made = [];
    for (let i = 0; i < 3; i++) {
      h().clock.advance(1);
      made.push(await repo().insertPerson({ realmId, username: `${tag}_${i}`, passwordHash: null, email: `p${i}@example.test`, now: h().clock.now() }));
    }
    await repo().insertService({ owner: made[0]!, subname: 'svc', passwordHash: 'x', now: h().clock.now() });
    const page = await repo().listAccounts(realmId, { kind: 'person', limit: 2, offset: 0 });
    expect(page.map((a) => a.username)).toEqual([`${tag}_2`, `${tag}_1`]);
    expect(await repo().countAccounts(realmId, { kind: 'person' })).toBe(3);
    expect(await repo().countAccounts(realmId)).toBe(4);
    expect((await repo().listAccounts(realmId, { q: 'P1@EXAMPLE', limit: 10, offset: 0 })).map((a) => a.id)).toEqual([made[1]!.id]);
    // LIKE's wildcards in the search are plain characters
    expect(await repo().countAccounts(realmId, { q: '%' })).toBe(0);
    expect(await repo().countAccounts(realmId, { q: `${tag}_` })).toBe(4);
  });

  it('a sign-in writes its time and the area it named; a sign-in naming none keeps the area', async () => {
    const realmId = await createRealm(h());
    const now = h().clock.now();
    const p = await repo().insertPerson({ realmId, username: 'signs_in', passwordHash: null, now });
    await repo().recordSignIn(realmId, p.id, now + 1, '86');
    expect(await repo().findAccountById(realmId, p.id)).toMatchObject({ last_login_at: now + 1, last_login_area: '86' });
    await repo().recordSignIn(realmId, p.id, now + 2);
    expect(await repo().findAccountById(realmId, p.id)).toMatchObject({ last_login_at: now + 2, last_login_area: '86' });
  });

  it('writes given a transaction happen together or not at all', async () => {
    const realmId = await createRealm(h());
    const now = h().clock.now();
    const transact = transactOn(h().dbh.db);
    await expect(
      transact(async (trx) => {
        await repo().insertPerson({ realmId, username: 'twice', passwordHash: null, now }, trx);
        await repo().insertPerson({ realmId, username: 'TWICE', passwordHash: null, now }, trx);
      }),
    ).rejects.toThrow();
    expect(await repo().countAccounts(realmId)).toBe(0);
  });

  it('a CSV import writes many rows as insertPerson writes one, past every batch, and finds the names a realm already holds', async () => {
    const realmId = await createRealm(h());
    const now = h().clock.now();
    const n = 10_003; // past a batch of 500 (SQLite) and of 10,000 (PostgreSQL)
    const people: NewPerson[] = Array.from({ length: n }, (_, i) => ({
      realmId,
      username: `Bulk_${i}`,
      passwordHash: null,
      email: `Bulk.${i}@Example.test`,
      now,
    }));
    people[7] = { ...people[7]!, passwordHash: 'hash-7', phone: '+8613900000007', forcePassword: true, disabled: true, activated: false, registArea: '86' };
    expect(await repo().insertPersons(people)).toBe(n);
    expect(await repo().countAccounts(realmId, { kind: 'person' })).toBe(n);
    const one = await repo().insertPerson({ ...people[7]!, username: 'Single', email: null, phone: null, id: 'single-7' });
    const bulk7 = await repo().findAccountByUsername(realmId, 'bulk_7');
    expect(bulk7).toEqual({
      ...one,
      id: bulk7!.id,
      username: 'Bulk_7',
      username_norm: 'bulk_7',
      email: 'Bulk.7@Example.test',
      email_norm: 'bulk.7@example.test',
      phone: '+8613900000007',
    });
    expect(await repo().findAccountByUsername(realmId, `bulk_${n - 1}`)).toMatchObject({
      email_norm: `bulk.${n - 1}@example.test`,
      password_hash: null,
      disabled: 0,
      activated: 1,
      force_password: 0,
    });

    // taken: folded names and addresses, a service account's name too; another realm's never
    await repo().insertService({ owner: bulk7!, subname: 'cam', passwordHash: 'x', now });
    const other = await createRealm(h());
    await repo().insertPerson({ realmId: other, username: 'elsewhere', passwordHash: null, email: 'elsewhere@example.test', now });
    const taken = await repo().findTakenKeys(realmId, {
      usernames: ['bulk_0', `bulk_${n - 1}`, 'bulk_7/cam', 'nobody', 'elsewhere'],
      emails: ['bulk.3@example.test', 'elsewhere@example.test'],
      phones: ['+8613900000007', '+8613900000008'],
    });
    expect(taken).toEqual({
      usernames: new Set(['bulk_0', `bulk_${n - 1}`, 'bulk_7/cam']),
      emails: new Set(['bulk.3@example.test']),
      phones: new Set(['+8613900000007']),
    });
    expect(await repo().findTakenKeys(realmId, { usernames: [], emails: [], phones: [] })).toEqual({
      usernames: new Set(),
      emails: new Set(),
      phones: new Set(),
    });
  });
});
