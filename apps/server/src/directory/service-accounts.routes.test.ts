/**
 * Service (sub) accounts over HTTP on both databases (issue 11): SPEC §5's sub-name rule,
 * uniqueness per owner, keyset paging, SPEC §3's fields, edit / enable / disable / delete with
 * their effect on sign-in and sessions, the audit trail, realm isolation and mass
 * assignment.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, bindRole, createPerson, createRealm, signIn, tokenFor } from '../test/kit.js';
import { addService, adminBase, adminOne, SERVICE_PASSWORD, serviceEvents } from './service-accounts.testkit.js';

describeBothDbs('service accounts: administration', (h) => {
  const admin = () => h().login();

  it('SPEC §5 sub name: letter first, then letters, digits, _ and .; 3-50 — accepted and refused with 1009 naming the field', async () => {
    const token = await admin();
    const owner = await createPerson(h());
    const accepted = ['abc', 'a.b', 'A_1.x', 'Zz9', `a${'b'.repeat(49)}`];
    const refused = ['ab', '1abc', '_abc', '.abc', 'a-b', 'a b', 'a/b', `a${'b'.repeat(50)}`, 'añb', ''];
    for (const subname of accepted) {
      const res = await as(h(), token).post(adminBase('master', owner.id), { subname, password: SERVICE_PASSWORD });
      expect(res.status, subname).toBe(200);
      expect(res.body.data).toMatchObject({ account: `${owner.username}/${subname}`, subname, status: 'enabled' });
    }
    for (const subname of refused) {
      const res = await as(h(), token).post(adminBase('master', owner.id), { subname, password: SERVICE_PASSWORD });
      expect(res.status, subname).toBe(400);
      expect(res.body, subname).toMatchObject({ code: 1009, errData: { field: 'subname' } });
    }
    const list = await as(h(), token).get(`${adminBase('master', owner.id)}?limit=100`);
    expect(list.body.data.total).toBe(accepted.length);
  });

  it('a sub name is unique per owner, without regard to case (1050); another owner may use it', async () => {
    const token = await admin();
    const [alice, bob] = [await createPerson(h()), await createPerson(h())];
    await addService(h(), token, alice, { subname: 'robot1' });
    const again = await as(h(), token).post(adminBase('master', alice.id), { subname: 'Robot1', password: SERVICE_PASSWORD });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 1050, error: 'service_name_taken', errData: { field: 'subname' } });
    expect(again.body.msg).toContain('This owner already has a service account with this sub name');
    await addService(h(), token, bob, { subname: 'robot1' });
  });

  it('40 parallel creations of one sub name (cases mixed) for one owner: exactly one account, the rest 1050, never a 500', async () => {
    const token = await admin();
    const owner = await createPerson(h());
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        as(h(), token).post(adminBase('master', owner.id), { subname: i % 2 ? 'Twin.Arm' : 'twin.arm', password: SERVICE_PASSWORD }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(39);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toMatchObject({ code: 1050 });
    const list = await as(h(), token).get(`${adminBase('master', owner.id)}?limit=100`);
    expect(list.body.data.total).toBe(1);
  });

  it('lists in sub-name order with keyset paging both ways and a sub-name prefix search', async () => {
    const token = await admin();
    const owner = await createPerson(h());
    for (const subname of ['echo', 'alpha', 'delta', 'bravo', 'charlie', 'alpine']) await addService(h(), token, owner, { subname });
    const page = async (query: string) => (await as(h(), token).get(`${adminBase('master', owner.id)}?${query}`)).body.data;
    const names = (p: { items: { subname: string }[] }) => p.items.map((i) => i.subname);

    const first = await page('limit=2');
    expect(names(first)).toEqual(['alpha', 'alpine']);
    expect(first).toMatchObject({ total: 6, prevCursor: null });
    const second = await page(`limit=2&cursor=${first.nextCursor}`);
    expect(names(second)).toEqual(['bravo', 'charlie']);
    const third = await page(`limit=2&cursor=${second.nextCursor}`);
    expect(names(third)).toEqual(['delta', 'echo']);
    expect(third.nextCursor).toBeNull();
    const back = await page(`limit=2&direction=prev&cursor=${third.prevCursor}`);
    expect(names(back)).toEqual(['bravo', 'charlie']);
    const backToStart = await page(`limit=2&direction=prev&cursor=${back.prevCursor}`);
    expect(names(backToStart)).toEqual(['alpha', 'alpine']);
    expect(backToStart.prevCursor).toBeNull();

    const search = await page('q=ALP');
    expect(names(search)).toEqual(['alpha', 'alpine']);
    expect(search.total).toBe(2);
    // '%' and '_' are searched as typed, not as wildcards
    expect((await page('q=%25')).total).toBe(0);
  });

  it('SPEC §3 fields; edit changes only description, registration area and the forced change; unknown fields are refused (A-40)', async () => {
    const token = await admin();
    const owner = await createPerson(h());
    const created = await addService(h(), token, owner, {
      subname: 'cam01',
      description: 'front door',
      regist_area: '86',
      first_login_need_reset_password: false,
    });
    const url = adminOne('master', owner.id, created.sub_id);
    const info = await as(h(), token).get(url);
    expect(info.body.data).toEqual({
      account: `${owner.username}/cam01`,
      status: 'enabled',
      sub_id: created.sub_id,
      subname: 'cam01',
      ownerId: owner.id,
      ownerName: owner.username,
      realmId: 'master',
      regist_area: '86',
      first_login_need_reset_password: false,
      description: 'front door',
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      lastLoginTime: null,
    });

    const edited = await as(h(), token).patch(url, { description: 'back door', regist_area: '852', first_login_need_reset_password: true });
    expect(edited.body.data).toMatchObject({ description: 'back door', regist_area: '852', first_login_need_reset_password: true });

    for (const body of [{ description: 'abc' }, { regist_area: '0' }, { first_login_need_reset_password: 'yes' }]) {
      const res = await as(h(), token).patch(url, body);
      expect(res.body, JSON.stringify(body)).toMatchObject({ code: 1009, errData: { field: Object.keys(body)[0] } });
    }
    for (const field of ['realmId', 'owner_id', 'kind', 'permissions', 'subname', 'username', 'disabled']) {
      const res = await as(h(), token).patch(url, { description: 'hijack', [field]: 'x' });
      expect(res.status, field).toBe(400);
      expect(res.body.errData, field).toEqual({ field, reason: 'unknown field' });
    }
    const create = await as(h(), token).post(adminBase('master', owner.id), { subname: 'cam02', password: SERVICE_PASSWORD, realmId: 'other' });
    expect(create.body).toMatchObject({ code: 1009, errData: { field: 'realmId' } });
    expect((await as(h(), token).get(url)).body.data).toMatchObject({ description: 'back door', regist_area: '852', realmId: 'master', ownerId: owner.id });
  });

  it('disable ends its sessions and refuses its sign-in (1011); enable lets it in again; delete ends it for good', async () => {
    const token = await admin();
    const owner = await createPerson(h());
    const s = await addService(h(), token, owner, { subname: 'worker', first_login_need_reset_password: false });
    const creds = { username: s.account, password: SERVICE_PASSWORD };
    const serviceToken = await tokenFor(h(), creds);
    expect((await as(h(), serviceToken).get('/api/users/account')).body.data).toMatchObject({ kind: 'service', accountMark: s.account });

    const disabled = await as(h(), token).post(`${adminOne('master', owner.id, s.sub_id)}/disable`);
    expect(disabled.body.data.status).toBe('disabled');
    expect((await as(h(), serviceToken).get('/api/users/account')).status).toBe(401);
    const refused = await signIn(h(), creds);
    expect(refused.body).toMatchObject({ code: 1011 });

    expect((await as(h(), token).post(`${adminOne('master', owner.id, s.sub_id)}/enable`)).body.data.status).toBe('enabled');
    const again = await tokenFor(h(), creds);

    const del = await as(h(), token).delete(adminOne('master', owner.id, s.sub_id));
    expect(del.body).toEqual({ result: 'ok', code: 0, data: null });
    expect((await as(h(), again).get('/api/users/account')).status).toBe(401);
    expect((await signIn(h(), creds)).body.code).toBe(1010);
    expect((await as(h(), token).get(adminOne('master', owner.id, s.sub_id))).status).toBe(404);
    expect((await as(h(), token).delete(adminOne('master', owner.id, s.sub_id))).status).toBe(404);
  });

  it('records service.create/update/disable/enable/password/resources/delete in the audit trail, field names only', async () => {
    const token = await admin();
    const owner = await createPerson(h());
    const s = await addService(h(), token, owner, { subname: 'audited' });
    const url = adminOne('master', owner.id, s.sub_id);
    const steps = [
      () => as(h(), token).patch(url, { description: 'with a note' }),
      () => as(h(), token).post(`${url}/disable`),
      () => as(h(), token).post(`${url}/enable`),
      () => as(h(), token).put(`${url}/password`, { password: 'Another-Pass-8812' }),
      () => as(h(), token).put(`${url}/resources`, { grants: [] }),
      () => as(h(), token).delete(url),
    ];
    for (const step of steps) {
      // the trail orders by time: one step a second
      h().clock.advance(1000);
      expect((await step()).status).toBe(200);
    }
    const events = (await serviceEvents(h(), 'master')).filter((e) => e.target?.id === s.sub_id);
    expect(events.map((e) => e.action)).toEqual([
      'service.create',
      'service.update',
      'service.disable',
      'service.enable',
      'service.password',
      'service.resources',
      'service.delete',
    ]);
    expect(events[0]).toMatchObject({ actor: { name: 'admin' }, result: 'ok', target: { type: 'service', name: s.account } });
    expect(events[1]!.changes).toEqual(['description']);
    expect(events[4]!.changes).toEqual(['password', 'first_login_need_reset_password']);
    expect(JSON.stringify(events)).not.toContain('Another-Pass-8812');
    expect(JSON.stringify(events)).not.toContain(SERVICE_PASSWORD);
  });

  it('A-39: an owner or service account of another realm, or of another owner, is not found and nothing changes', async () => {
    const token = await admin();
    const [a, b] = [await createRealm(h()), await createRealm(h())];
    const ownerA = await createPerson(h(), { realmId: a });
    const otherA = await createPerson(h(), { realmId: a });
    const s = await addService(h(), token, ownerA, { subname: 'iso' });
    // realm B's path with realm A's ids
    expect((await as(h(), token).get(adminBase(b, ownerA.id))).status).toBe(404);
    expect((await as(h(), token).post(`${adminOne(b, ownerA.id, s.sub_id)}/disable`)).status).toBe(404);
    // another owner's path with this owner's service account
    expect((await as(h(), token).post(`${adminOne(a, otherA.id, s.sub_id)}/disable`)).status).toBe(404);
    expect((await as(h(), token).delete(adminOne(a, otherA.id, s.sub_id))).status).toBe(404);
    // a service account is no owner
    expect((await as(h(), token).get(adminBase(a, s.sub_id))).status).toBe(404);
    // a realm-admin of B gets 1003 on A's path, before any lookup
    const adminB = await createPerson(h(), { realmId: b });
    await bindRole(h(), adminB, 'realm-admin');
    const tokenB = await tokenFor(h(), adminB);
    const refused = await as(h(), tokenB).post(`${adminOne(a, ownerA.id, s.sub_id)}/disable`);
    expect(refused.body).toMatchObject({ code: 1003, errData: { service: 'users', resource: 'service', perm: 'disable' } });
    expect((await as(h(), token).get(adminOne(a, ownerA.id, s.sub_id))).body.data.status).toBe('enabled');
  });

  it('a realm-viewer lists and reads but every write is refused with 1003, leaving the account as it was', async () => {
    const token = await admin();
    const realm = await createRealm(h());
    const owner = await createPerson(h(), { realmId: realm });
    const s = await addService(h(), token, owner, { subname: 'viewed' });
    const viewer = await createPerson(h(), { realmId: realm });
    await bindRole(h(), viewer, 'realm-viewer');
    const v = as(h(), await tokenFor(h(), viewer));
    const url = adminOne(realm, owner.id, s.sub_id);
    expect((await v.get(adminBase(realm, owner.id))).body.data.total).toBe(1);
    expect((await v.get(url)).status).toBe(200);
    const writes = [
      () => v.post(adminBase(realm, owner.id), { subname: 'nope', password: SERVICE_PASSWORD }),
      () => v.patch(url, { description: 'changed' }),
      () => v.post(`${url}/disable`),
      () => v.put(`${url}/password`, { password: 'Another-Pass-8812' }),
      () => v.put(`${url}/resources`, { grants: [] }),
      () => v.delete(url),
    ];
    for (const write of writes) expect((await write()).body.code).toBe(1003);
    expect((await as(h(), token).get(url)).body.data).toMatchObject({ status: 'enabled', description: '' });
    expect((await as(h(), token).get(adminBase(realm, owner.id))).body.data.total).toBe(1);
  });
});
