/**
 * A service account's "resources" (issue 11, DESIGN.md §4) on both databases: grants are
 * enforced on every call it makes, always within its owner's CURRENT permissions; nobody
 * grants beyond the owner or beyond themselves, nor takes over a service account that holds
 * more than they do; the owner's own door (userService); the forced first password.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, bindRole, createPerson, createRealm, signIn, tokenFor, type TestAccount } from '../test/kit.js';
import { addService, adminOne, grantRole, OWN_BASE, ownOne, SERVICE_PASSWORD } from './service-accounts.testkit.js';

describeBothDbs('service accounts: grants and their enforcement', (h) => {
  const admin = () => h().login();
  const personList = (realmId: string) => `/api/users/realms/${realmId}/accounts`;

  /** A realm, an owner there holding `role`, and one of its service accounts signed in (no forced change). */
  async function setup(role: 'realm-admin' | 'realm-viewer' = 'realm-admin') {
    const token = await admin();
    const realm = await createRealm(h());
    const owner = await createPerson(h(), { realmId: realm });
    await bindRole(h(), owner, role);
    const s = await addService(h(), token, owner, { subname: 'bot', first_login_need_reset_password: false });
    const serviceToken = await tokenFor(h(), { username: s.account, password: SERVICE_PASSWORD, realmId: realm });
    return { token, realm, owner, s, serviceToken, url: adminOne(realm, owner.id, s.sub_id) };
  }

  it('a service account with person.query lists the accounts; without it 1003; when the owner loses the role, so does it at once', async () => {
    const { token, realm, owner, serviceToken, url } = await setup();
    const svc = as(h(), serviceToken);
    const before = await svc.get(personList(realm));
    expect(before.body).toMatchObject({ code: 1003, errData: { service: 'users', resource: 'person', perm: 'query' } });

    const set = await as(h(), token).put(`${url}/resources`, { grants: [{ permissionId: 'person', actions: ['query', 'get'] }] });
    expect(set.status).toBe(200);
    expect(set.body.data.grants).toEqual([{ permissionId: 'person', actions: ['query', 'get'] }]);
    expect(set.body.data.effective).toEqual([{ permissionId: 'person', actions: ['query', 'get'] }]);

    expect((await svc.get(personList(realm))).status).toBe(200);
    // granted query, not delete: the rest stays refused
    expect((await svc.delete(`${personList(realm)}/${owner.id}`)).body.code).toBe(1003);
    // the same token, the owner's role gone: refused on the very next call
    await h().ctx.repos.roles.unbindRole(owner.id, 'realm-admin', realm);
    expect((await svc.get(personList(realm))).body.code).toBe(1003);
    // and back with the role
    await bindRole(h(), owner, 'realm-admin');
    expect((await svc.get(personList(realm))).status).toBe(200);
    // the current user of the service account shows what it holds
    const info = await svc.get('/api/perm/user/info');
    const held = info.body.data.roles.flatMap((r: { permissions: { permissionId: string; actionList: string[] }[] }) => r.permissions);
    expect(held).toContainEqual(expect.objectContaining({ permissionId: 'person', actionList: ['query', 'get'] }));
    expect(held.map((p: { permissionId: string }) => p.permissionId)).not.toContain('domain');
  });

  it('a disabled owner leaves its service accounts their own pages only', async () => {
    const { token, realm, owner, serviceToken, url } = await setup();
    await as(h(), token).put(`${url}/resources`, { grants: [{ permissionId: 'person', actions: ['query'] }] });
    expect((await as(h(), serviceToken).get(personList(realm))).status).toBe(200);
    await h().ctx.repos.accounts.updateAccount(realm, owner.id, { disabled: 1 });
    expect((await as(h(), serviceToken).get(personList(realm))).body.code).toBe(1003);
    expect((await as(h(), serviceToken).get('/api/users/account')).status).toBe(200);
  });

  it('A-40: a grant the owner does not hold is refused (1051) and nothing is stored', async () => {
    const { token, url } = await setup('realm-viewer');
    const res = await as(h(), token).put(`${url}/resources`, { grants: [{ permissionId: 'person', actions: ['query', 'delete'] }] });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 1051, errData: { permissionId: 'person', action: 'delete', holder: 'owner' } });
    const now = await as(h(), token).get(`${url}/resources`);
    expect(now.body.data.grants).toEqual([]);
    // what may be granted is what the owner holds: reading only
    const person = now.body.data.grantable.find((g: { permissionId: string }) => g.permissionId === 'person');
    expect(person.actions).toEqual(['query', 'get']);
    // ids and actions outside the catalogue, the self pages, and duplicates are input errors
    for (const grants of [
      [{ permissionId: 'nope', actions: ['query'] }],
      [{ permissionId: 'center', actions: ['query'] }],
      [{ permissionId: 'person', actions: ['fly'] }],
      [{ permissionId: 'person', actions: ['query', 'query'] }],
      [
        { permissionId: 'person', actions: ['query'] },
        { permissionId: 'person', actions: ['get'] },
      ],
    ]) {
      expect((await as(h(), token).put(`${url}/resources`, { grants })).body.code, JSON.stringify(grants)).toBe(1009);
    }
  });

  it('A-40: nobody grants a service account more than they hold, nor sets the password of one that holds more (1051 caller, 1052)', async () => {
    const token = await admin();
    // the owner: a second platform admin; its service account may reach every realm
    const bigOwner = await createPerson(h());
    await bindRole(h(), bigOwner, 'admin');
    const big = await addService(h(), token, bigOwner, { subname: 'big', first_login_need_reset_password: false });
    const bigUrl = adminOne('master', bigOwner.id, big.sub_id);
    // a realm-admin of master: manages service accounts there, but is no platform admin
    const realmAdmin = await createPerson(h());
    await bindRole(h(), realmAdmin, 'realm-admin');
    const ra = as(h(), await tokenFor(h(), realmAdmin));

    const outbox = await ra.put(`${bigUrl}/resources`, { grants: [{ permissionId: 'outbox', actions: ['query'] }] });
    expect(outbox.body).toMatchObject({ code: 1051, errData: { permissionId: 'outbox', holder: 'caller' } });
    // person.query through admin reaches every realm: more than a realm-admin of master holds
    const person = await ra.put(`${bigUrl}/resources`, { grants: [{ permissionId: 'person', actions: ['query'] }] });
    expect(person.body).toMatchObject({ code: 1051, errData: { permissionId: 'person', action: 'query', holder: 'caller' } });
    expect((await ra.get(`${bigUrl}/resources`)).body.data.grantable).toEqual([]);

    // the platform admin may; then the realm-admin cannot take the account over through its password
    expect((await as(h(), token).put(`${bigUrl}/resources`, { grants: [{ permissionId: 'person', actions: ['query'] }] })).status).toBe(200);
    const takeover = await ra.put(`${bigUrl}/password`, { password: 'Taken-Over-7731' });
    expect(takeover.status).toBe(403);
    expect(takeover.body).toMatchObject({ code: 1052, errData: { permissionId: 'person', action: 'query' } });
    expect((await signIn(h(), { username: big.account, password: 'Taken-Over-7731' })).body.code).toBe(1010);
    // …while one that holds nothing beyond the caller's may be reset by them
    const small = await addService(h(), token, realmAdmin, { subname: 'small' });
    expect((await ra.put(`${adminOne('master', realmAdmin.id, small.sub_id)}/password`, { password: 'Small-Reset-5520' })).status).toBe(200);
  });

  it('the force-password flow: a service account must change its password before anything else, then it works', async () => {
    const token = await admin();
    const realm = await createRealm(h());
    const owner = await createPerson(h(), { realmId: realm });
    await bindRole(h(), owner, 'realm-admin');
    const s = await addService(h(), token, owner, { subname: 'fresh' });
    expect(s).toMatchObject({ first_login_need_reset_password: true });
    await as(h(), token).put(`${adminOne(realm, owner.id, s.sub_id)}/resources`, { grants: [{ permissionId: 'person', actions: ['query'] }] });

    const login = await signIn(h(), { username: s.account, password: SERVICE_PASSWORD, realmId: realm });
    expect(login.status).toBe(200);
    const svc = as(h(), login.body.data.token as string);
    expect((await svc.get('/api/users/account')).body.data).toMatchObject({ forcePassword: true, kind: 'service' });
    expect((await svc.get(personList(realm))).body.code).toBe(1008);
    const weak = await svc.post('/api/users/account/password', { oldPassword: SERVICE_PASSWORD, newPassword: '123456' });
    expect(weak.body.code).toBe(1021);
    const changed = await svc.post('/api/users/account/password', { oldPassword: SERVICE_PASSWORD, newPassword: 'My-Own-Secret-3390' });
    expect(changed.status).toBe(200);
    expect((await svc.get(personList(realm))).status).toBe(200);
    const view = await as(h(), token).get(adminOne(realm, owner.id, s.sub_id));
    expect(view.body.data).toMatchObject({ first_login_need_reset_password: false, lastLoginTime: expect.any(Number) });

    // an administrator sets a new one: the session ends and the change is forced again
    await as(h(), token).put(`${adminOne(realm, owner.id, s.sub_id)}/password`, { password: 'Admin-Chosen-4401' });
    expect((await svc.get('/api/users/account')).status).toBe(401);
    const again = await signIn(h(), { username: s.account, password: 'Admin-Chosen-4401', realmId: realm });
    expect((await as(h(), again.body.data.token as string).get(personList(realm))).body.code).toBe(1008);
  });

  describeOwnDoor();

  function describeOwnDoor() {
    /** A person of a new realm holding its own-service-account permission (and person.query to pass on). */
    async function ownerWithDoor(): Promise<{ owner: TestAccount; token: string }> {
      const realm = await createRealm(h());
      const owner = await createPerson(h(), { realmId: realm });
      await grantRole(h(), owner, [
        { permissionId: 'userService', actions: ['query', 'get', 'add', 'edit', 'update', 'enable', 'disable', 'delete'] },
        { permissionId: 'person', actions: ['query'] },
      ]);
      return { owner, token: await tokenFor(h(), owner) };
    }

    it('a person without userService has no own door (1003), and sees no flag', async () => {
      const plain = await createPerson(h());
      const res = await as(h(), await tokenFor(h(), plain)).get(OWN_BASE);
      expect(res.body).toMatchObject({ code: 1003, errData: { service: 'users', resource: 'userService', perm: 'query' } });
    });

    it('the owner manages its own: add, list, resources within its own permissions, and the service account uses them', async () => {
      const { owner, token } = await ownerWithDoor();
      const me = as(h(), token);
      const created = await me.post(OWN_BASE, { subname: 'mine', password: SERVICE_PASSWORD, first_login_need_reset_password: false });
      expect(created.body.data).toMatchObject({ account: `${owner.username}/mine`, ownerId: owner.id, realmId: owner.realmId });
      const id = created.body.data.sub_id as string;
      expect((await me.get(OWN_BASE)).body.data.items.map((i: { subname: string }) => i.subname)).toEqual(['mine']);

      const wide = await me.put(`${ownOne(id)}/resources`, { grants: [{ permissionId: 'person', actions: ['delete'] }] });
      expect(wide.body).toMatchObject({ code: 1051, errData: { holder: 'owner' } });
      const resources = await me.get(`${ownOne(id)}/resources`);
      expect(resources.body.data.grantable).toEqual([{ permissionId: 'person', actions: ['query'] }]);
      expect((await me.put(`${ownOne(id)}/resources`, { grants: [{ permissionId: 'person', actions: ['query'] }] })).status).toBe(200);

      const svc = as(h(), await tokenFor(h(), { username: `${owner.username}/mine`, password: SERVICE_PASSWORD, realmId: owner.realmId }));
      expect((await svc.get(personList(owner.realmId))).status).toBe(200);
      // a service account owns no service accounts
      expect((await svc.get(OWN_BASE)).body.code).toBe(1003);

      expect((await me.post(`${ownOne(id)}/disable`)).body.data.status).toBe('disabled');
      expect((await svc.get('/api/users/account')).status).toBe(401);
      expect((await me.delete(ownOne(id))).status).toBe(200);
      expect((await me.get(OWN_BASE)).body.data.total).toBe(0);
    });

    it('A-40: the own door reaches only the caller’s service accounts, whatever id is sent', async () => {
      const token = await admin();
      const { owner, token: ownerToken } = await ownerWithDoor();
      const other = await createPerson(h(), { realmId: owner.realmId });
      const theirs = await addService(h(), token, other, { subname: 'theirs' });
      const me = as(h(), ownerToken);
      for (const res of [
        await me.get(ownOne(theirs.sub_id)),
        await me.post(`${ownOne(theirs.sub_id)}/disable`),
        await me.put(`${ownOne(theirs.sub_id)}/password`, { password: 'Stolen-Pass-9921' }),
        await me.delete(ownOne(theirs.sub_id)),
      ]) {
        expect(res.status).toBe(404);
      }
      // an owner id in the body is not a field of the own door
      expect((await me.post(OWN_BASE, { subname: 'sneaky', password: SERVICE_PASSWORD, ownerId: other.id })).body.code).toBe(1009);
      expect((await as(h(), token).get(adminOne(owner.realmId, other.id, theirs.sub_id))).body.data.status).toBe('enabled');
    });
  }
});
