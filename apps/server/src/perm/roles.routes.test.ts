/**
 * /api/perm roles and assignments over HTTP on both databases: the catalogue, what a realm
 * lists, the role rules (name, description, permissions; strict bodies), A-40 escalation
 * (never wider than the caller's own set, admin only by admin of master, the last admin of
 * master kept), A-39 (another realm's role is not found), and the audit events written with
 * each change.
 */
import { ACTIONS, PERMISSION_IDS } from '@umbo/contracts';
import { canIn } from '@umbo/contracts/permissions';
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, bindRole, createPerson, createRealm, createService, tokenFor } from '../test/kit.js';
import { assignmentUrl, assignmentsUrl, auditRows, holder, roleBody, roleUrl, rolesUrl } from './roles.testkit.js';

describeBothDbs('roles API', (h) => {
  const admin = () => h().login();
  const countRoles = async () =>
    Number(
      (
        await h()
          .dbh.db.selectFrom('roles')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('serves the catalogue to any signed-in account: every permission id with the ten actions', async () => {
    const plain = await holder(h(), 'master');
    const res = await as(h(), plain.token).get('/api/perm/permissions');
    expect(res.status).toBe(200);
    expect(res.body.data.actions).toEqual([...ACTIONS]);
    expect(res.body.data.permissions.map((p: { permissionId: string }) => p.permissionId)).toEqual([...PERMISSION_IDS]);
    expect(res.body.data.permissions.find((p: { permissionId: string }) => p.permissionId === 'outbox')).toMatchObject({ scope: 'platform' });
    expect((await as(h()).get('/api/perm/permissions')).status).toBe(401);
  });

  it('lists the built-in roles (admin in master only) and the realm’s own custom roles, never another realm’s', async () => {
    const [a, b] = [await createRealm(h()), await createRealm(h())];
    const token = await admin();
    const mine = (await as(h(), token).post(rolesUrl(a), roleBody())).body.data;
    const theirs = (await as(h(), token).post(rolesUrl(b), roleBody())).body.data;
    const listA = (await as(h(), token).get(rolesUrl(a))).body.data;
    expect(listA.items.map((r: { id: string }) => r.id)).toEqual(['realm-admin', 'realm-viewer', mine.id]);
    expect(listA.total).toBe(3);
    expect(listA.items.map((r: { id: string }) => r.id)).not.toContain(theirs.id);
    const master = (await as(h(), token).get(rolesUrl('master'))).body.data;
    expect(master.items.slice(0, 3).map((r: { id: string }) => r.id)).toEqual(['admin', 'realm-admin', 'realm-viewer']);
    expect(master.items[0]).toMatchObject({ builtin: true, realmId: null, grantable: true });
    expect(master.items[0].bindings).toBeGreaterThanOrEqual(1);
  });

  it('an unknown realm is 1004 for the admin of master, and 1003 for everybody else (the guard decides first)', async () => {
    expect((await as(h(), await admin()).get(rolesUrl('no-such-realm'))).body.code).toBe(1004);
    const other = await holder(h(), await createRealm(h()), 'realm-admin');
    expect((await as(h(), other.token).get(rolesUrl('no-such-realm'))).body.code).toBe(1003);
  });

  it('creates a custom role, normalising its grants, and records role.create with field names only', async () => {
    const realm = await createRealm(h());
    const body = roleBody([
      { permissionId: 'person', actions: ['get', 'query'] },
      { permissionId: 'audit', actions: ['query'] },
    ]);
    const res = await as(h(), await admin()).post(rolesUrl(realm), body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      realmId: realm,
      name: body.name,
      description: body.description,
      builtin: false,
      bindings: 0,
      grantable: true,
      // catalogue order, actions in SPEC §6 order
      permissions: [
        { permissionId: 'person', actions: ['query', 'get'] },
        { permissionId: 'audit', actions: ['query'] },
      ],
    });
    const [row] = await auditRows(h(), realm, 'role.create');
    expect(row).toMatchObject({ actor_name: 'admin', target_type: 'role', target_id: res.body.data.id, target_name: body.name, result: 'ok' });
    expect(row!.detail).toEqual({ changes: ['name', 'description', 'permissions'] });
    expect((await as(h(), await admin()).get(roleUrl(realm, res.body.data.id))).body.data).toEqual(res.body.data);
  });

  it.each([
    ['name', { name: 'ab' }],
    ['name', { name: '1role' }],
    ['name', { name: 'has space' }],
    ['name', { name: 'x'.repeat(51) }],
    ['name', { name: 'Admin' }],
    ['name', { name: 'realm-viewer' }],
    ['description', { description: 'abc' }],
    ['description', { description: 'x'.repeat(51) }],
    ['permissions', { permissions: [] }],
    ['permissions.0.permissionId', { permissions: [{ permissionId: 'outbox', actions: ['query'] }] }],
    ['permissions.0.permissionId', { permissions: [{ permissionId: 'center', actions: ['query'] }] }],
    ['permissions.0.actions.0', { permissions: [{ permissionId: 'person', actions: ['read'] }] }],
    ['permissions.0.actions', { permissions: [{ permissionId: 'person', actions: [] }] }],
    [
      'permissions',
      {
        permissions: [
          { permissionId: 'person', actions: ['get'] },
          { permissionId: 'person', actions: ['query'] },
        ],
      },
    ],
    ['realmId', { realmId: 'master' }],
    ['builtin', { builtin: true }],
    ['id', { id: 'admin' }],
    ['permissions.0.realmId', { permissions: [{ permissionId: 'person', actions: ['get'], realmId: 'master' }] }],
  ])('refuses a role whose %s is wrong (1009 naming it), writing nothing: %j', async (field, patch) => {
    const realm = await createRealm(h());
    const before = await countRoles();
    const res = await as(h(), await admin()).post(rolesUrl(realm), { ...roleBody(), ...patch });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 1009, errData: { field } });
    expect(await countRoles()).toBe(before);
  });

  it('accepts the edges of the rules: 3 and 50 characters, dots, hyphens, underscores; description 4 and 50', async () => {
    const realm = await createRealm(h());
    const token = await admin();
    for (const [name, description] of [
      ['abc', 'abcd'],
      [`a${'b'.repeat(49)}`, 'x'.repeat(50)],
      ['ops.read-only_2', '只读运维角色'],
    ]) {
      const res = await as(h(), token).post(rolesUrl(realm), { ...roleBody(), name, description });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  it('a name is unique in its realm whatever its case (1060), and free in another realm', async () => {
    const [a, b] = [await createRealm(h()), await createRealm(h())];
    const token = await admin();
    expect((await as(h(), token).post(rolesUrl(a), { ...roleBody(), name: 'Auditors' })).status).toBe(200);
    const again = await as(h(), token).post(rolesUrl(a), { ...roleBody(), name: 'auditors' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 1060, errData: { field: 'name' } });
    expect((await as(h(), token).post(rolesUrl(b), { ...roleBody(), name: 'auditors' })).status).toBe(200);
  });

  it('40 parallel creations of one role name (cases mixed) in a realm: one role, 39 × 1060, never a 500', async () => {
    const realm = await createRealm(h());
    const token = await admin();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => as(h(), token).post(rolesUrl(realm), { ...roleBody(), name: i % 2 ? 'Fleet_Ops' : 'fleet_ops' })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409 && r.body.code === 1060)).toHaveLength(39);
    const listed = (await as(h(), token).get(rolesUrl(realm))).body.data;
    const items = (Array.isArray(listed) ? listed : listed.items) as { name: string }[];
    expect(items.filter((r) => r.name.toLowerCase() === 'fleet_ops')).toHaveLength(1);
  });

  it('edits a custom role (role.update with the changed field names) and refuses to touch a built-in one (1061)', async () => {
    const realm = await createRealm(h());
    const token = await admin();
    const role = (await as(h(), token).post(rolesUrl(realm), roleBody())).body.data;
    const res = await as(h(), token).patch(roleUrl(realm, role.id), {
      description: 'reads accounts',
      permissions: [{ permissionId: 'person', actions: ['query'] }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: role.name, description: 'reads accounts', permissions: [{ permissionId: 'person', actions: ['query'] }] });
    const [row] = await auditRows(h(), realm, 'role.update');
    expect(row!.detail).toEqual({ changes: ['description', 'permissions'] });
    expect(JSON.stringify(row)).not.toContain('reads accounts');

    for (const id of ['realm-admin', 'realm-viewer']) {
      expect((await as(h(), token).patch(roleUrl(realm, id), { description: 'changed it' })).body.code).toBe(1061);
      expect((await as(h(), token).delete(roleUrl(realm, id))).body.code).toBe(1061);
    }
    expect((await as(h(), token).delete(roleUrl('master', 'admin'))).body.code).toBe(1061);
    expect((await as(h(), token).patch(roleUrl(realm, role.id), { builtin: true })).body).toMatchObject({ code: 1009, errData: { field: 'builtin' } });
  });

  it('deletes a custom role with its assignments (role.delete counts them)', async () => {
    const realm = await createRealm(h());
    const token = await admin();
    const role = (await as(h(), token).post(rolesUrl(realm), roleBody())).body.data;
    const person = await createPerson(h(), { realmId: realm });
    expect((await as(h(), token).post(assignmentsUrl(realm), { accountId: person.id, roleId: role.id })).body.data).toEqual({ created: true });
    expect((await as(h(), token).delete(roleUrl(realm, role.id))).status).toBe(200);
    expect((await as(h(), token).get(roleUrl(realm, role.id))).body.code).toBe(1004);
    expect(await h().ctx.repos.roles.listBoundRoles(person.id)).toEqual([]);
    expect((await auditRows(h(), realm, 'role.delete'))[0]!.detail).toEqual({ bindings: 1 });
  });

  it('A-39 another realm’s role is not found through this realm’s path, by HTTP and in the repository, and stays as it was', async () => {
    const [a, b] = [await createRealm(h()), await createRealm(h())];
    const token = await admin();
    const roleA = (await as(h(), token).post(rolesUrl(a), roleBody())).body.data;
    const person = await createPerson(h(), { realmId: b });
    expect((await as(h(), token).get(roleUrl(b, roleA.id))).body.code).toBe(1004);
    expect((await as(h(), token).patch(roleUrl(b, roleA.id), { description: 'hijacked' })).body.code).toBe(1004);
    expect((await as(h(), token).delete(roleUrl(b, roleA.id))).body.code).toBe(1004);
    expect((await as(h(), token).post(assignmentsUrl(b), { accountId: person.id, roleId: roleA.id })).body.code).toBe(1004);
    const repo = h().ctx.repos.roles;
    expect(await repo.findRoleInRealm(b, roleA.id)).toBeUndefined();
    expect(await repo.updateRole(b, roleA.id, { description: 'hijacked' })).toBe(false);
    expect(await repo.deleteRole(b, roleA.id)).toBeNull();
    expect((await as(h(), token).get(roleUrl(a, roleA.id))).body.data).toEqual(roleA);
  });

  it('assigns a role to a person of the realm and takes it away again (role.bind / role.unbind), changing what that person may do', async () => {
    const realm = await createRealm(h());
    const token = await admin();
    const person = await createPerson(h(), { realmId: realm });
    const personToken = await tokenFor(h(), person);
    expect((await as(h(), personToken).get(rolesUrl(realm))).body.code).toBe(1003);

    expect((await as(h(), token).post(assignmentsUrl(realm), { accountId: person.id, roleId: 'realm-viewer' })).body.data).toEqual({ created: true });
    // giving it again changes nothing and records nothing
    expect((await as(h(), token).post(assignmentsUrl(realm), { accountId: person.id, roleId: 'realm-viewer' })).body.data).toEqual({ created: false });
    expect((await as(h(), personToken).get(rolesUrl(realm))).status).toBe(200);
    const list = (await as(h(), token).get(`${assignmentsUrl(realm)}?roleId=realm-viewer`)).body.data;
    expect(list).toMatchObject({
      total: 1,
      items: [{ accountId: person.id, username: person.username, kind: 'person', roleId: 'realm-viewer', roleName: 'realm-viewer', realmId: realm }],
    });
    expect((await as(h(), token).get(`${assignmentsUrl(realm)}?q=${person.username.slice(2, 8)}`)).body.data.total).toBe(1);
    expect((await as(h(), token).get(`${assignmentsUrl(realm)}?q=nobody-like-this`)).body.data.total).toBe(0);

    expect((await as(h(), token).delete(assignmentUrl(realm, person.id, 'realm-viewer'))).status).toBe(200);
    expect((await as(h(), personToken).get(rolesUrl(realm))).body.code).toBe(1003);
    expect((await as(h(), token).delete(assignmentUrl(realm, person.id, 'realm-viewer'))).body.code).toBe(1004);

    const [bind] = await auditRows(h(), realm, 'role.bind');
    expect(bind).toMatchObject({ target_type: 'account', target_id: person.id, target_name: person.username, actor_name: 'admin' });
    expect(bind!.detail).toEqual({ roleId: 'realm-viewer', roleName: 'realm-viewer' });
    expect(await auditRows(h(), realm, 'role.bind')).toHaveLength(1);
    expect(await auditRows(h(), realm, 'role.unbind')).toHaveLength(1);
  });

  it('assigns only to person accounts of that realm: another realm’s account 1207, a service account 1009, admin outside master 1064', async () => {
    const [a, b] = [await createRealm(h()), await createRealm(h())];
    const token = await admin();
    const stranger = await createPerson(h(), { realmId: b });
    const owner = await createPerson(h(), { realmId: a });
    const service = await createService(h(), owner, 'robot1');
    const res = await as(h(), token).post(assignmentsUrl(a), { accountId: stranger.id, roleId: 'realm-viewer' });
    expect(res.body).toMatchObject({ code: 1207, errData: { field: 'accountId' } });
    expect((await as(h(), token).post(assignmentsUrl(a), { accountId: service.id, roleId: 'realm-viewer' })).body).toMatchObject({
      code: 1009,
      errData: { field: 'accountId' },
    });
    expect((await as(h(), token).post(assignmentsUrl(a), { accountId: owner.id, roleId: 'admin' })).body).toMatchObject({ code: 1064 });
    expect((await as(h(), token).post(assignmentsUrl(a), { accountId: owner.id, roleId: 'realm-viewer', realmId: 'master' })).body).toMatchObject({
      code: 1009,
      errData: { field: 'realmId' },
    });
    for (const acc of [stranger, owner, service]) expect(await h().ctx.repos.roles.listBoundRoles(acc.id)).toEqual([]);
  });

  it('A-40 a realm-admin grants, edits and assigns only within its own set, and never admin', async () => {
    const realm = await createRealm(h());
    const ra = await holder(h(), realm, 'realm-admin');
    const other = await createPerson(h(), { realmId: realm });
    // audit is read-only for a realm-admin: a role that deletes audit events is wider than it
    const wide = await as(h(), ra.token).post(rolesUrl(realm), roleBody([{ permissionId: 'audit', actions: ['query', 'delete'] }]));
    expect(wide.status).toBe(403);
    expect(wide.body).toMatchObject({ code: 1062, errData: { permissionId: 'audit', action: 'delete' } });
    const narrow = await as(h(), ra.token).post(rolesUrl(realm), roleBody([{ permissionId: 'audit', actions: ['query'] }]));
    expect(narrow.status).toBe(200);
    expect(
      (await as(h(), ra.token).patch(roleUrl(realm, narrow.body.data.id), { permissions: [{ permissionId: 'audit', actions: ['edit'] }] })).body.code,
    ).toBe(1062);

    // a role the master admin made wider than the realm-admin: it may neither edit, delete, give nor take it
    const adminRole = (await as(h(), await admin()).post(rolesUrl(realm), roleBody([{ permissionId: 'audit', actions: ['delete'] }]))).body.data;
    expect(adminRole.grantable).toBe(true);
    const listed = (await as(h(), ra.token).get(rolesUrl(realm))).body.data;
    expect(listed.items.find((r: { id: string }) => r.id === adminRole.id).grantable).toBe(false);
    expect(listed.grantable.find((g: { permissionId: string }) => g.permissionId === 'audit').actions).toEqual(['query', 'get', 'export']);
    expect(listed.grantable.map((g: { permissionId: string }) => g.permissionId)).not.toContain('outbox');
    expect((await as(h(), ra.token).patch(roleUrl(realm, adminRole.id), { description: 'narrowed it' })).body.code).toBe(1062);
    expect((await as(h(), ra.token).delete(roleUrl(realm, adminRole.id))).body.code).toBe(1062);
    expect((await as(h(), ra.token).post(assignmentsUrl(realm), { accountId: other.id, roleId: adminRole.id })).body.code).toBe(1062);

    // the built-in roles of its realm are within its set
    expect((await as(h(), ra.token).post(assignmentsUrl(realm), { accountId: other.id, roleId: 'realm-admin' })).body.data).toEqual({ created: true });
    expect(await auditRows(h(), realm, 'role.bind')).toHaveLength(1);
  });

  it('A-40 a realm-admin of master cannot give admin (1062: it lacks creating realms), the admin of master can', async () => {
    const ra = await holder(h(), 'master', 'realm-admin');
    const person = await createPerson(h(), { realmId: 'master' });
    const res = await as(h(), ra.token).post(assignmentsUrl('master'), { accountId: person.id, roleId: 'admin' });
    expect(res.body).toMatchObject({ code: 1062, errData: { permissionId: 'domain', action: 'add' } });
    expect(await h().ctx.repos.roles.listBoundRoles(person.id)).toEqual([]);
    expect((await as(h(), await admin()).post(assignmentsUrl('master'), { accountId: person.id, roleId: 'admin' })).body.data).toEqual({ created: true });
    expect((await h().ctx.repos.roles.listBoundRoles(person.id)).map((r) => r.id)).toEqual(['admin']);
    // …and the new administrator may now take it from the first one's peers
    const token = await tokenFor(h(), person);
    expect((await as(h(), token).delete(assignmentUrl('master', person.id, 'admin'))).status).toBe(200);
  });

  it('gives a realm-admin its realm’s dashboard, audit reading and role management in the current user', async () => {
    const realm = await createRealm(h());
    const ra = await holder(h(), realm, 'realm-admin');
    const user = (await as(h(), ra.token).get('/api/perm/user/info')).body.data;
    const perms = user.roles.find((r: { id: string }) => r.id === 'realm-admin').permissions;
    const actions = (id: string) => perms.find((p: { permissionId: string }) => p.permissionId === id)?.actionList;
    expect(actions('dashboard')).toEqual([...ACTIONS]);
    expect(actions('role')).toEqual([...ACTIONS]);
    expect(actions('audit')).toEqual(['query', 'get', 'export']);
    expect(actions('outbox')).toBeUndefined();
    expect(user).toMatchObject({ showDomain: true, showServiceAccount: true, showOAuth: true, showDeveloper: true });
    const viewer = await holder(h(), realm, 'realm-viewer');
    const vperms = (await as(h(), viewer.token).get('/api/perm/user/info')).body.data.roles.find((r: { id: string }) => r.id === 'realm-viewer').permissions;
    expect(vperms.every((p: { actionList: string[] }) => p.actionList.join() === 'query,get')).toBe(true);
  });

  it('names the realm each role of the current user is bound in, so the console offers only what the guard allows there', async () => {
    const realm = await createRealm(h());
    // an account of master holding realm-admin (domainCert.update among it) in another realm
    const person = await holder(h(), 'master');
    await bindRole(h(), person, 'realm-admin', realm);
    const user = (await as(h(), person.token).get('/api/perm/user/info')).body.data;
    const ra = user.roles.find((r: { id: string }) => r.id === 'realm-admin');
    expect(ra.realmId).toBe(realm);
    expect(canIn(user, realm, 'domainCert', 'update')).toBe(true);
    expect(canIn(user, 'master', 'domainCert', 'update')).toBe(false);
    // the server agrees: renewing the platform root (master's domainCert.update) is refused
    expect((await as(h(), person.token).post('/api/cert/platform-root/renew')).body.code).toBe(1003);
    const admin = (await as(h(), await h().login()).get('/api/perm/user/info')).body.data;
    expect(admin.roles.find((r: { id: string }) => r.id === 'admin').realmId).toBe('master');
    expect(canIn(admin, realm, 'domainCert', 'update')).toBe(true);
  });

  it('offers the realm’s person accounts by part of their name as candidates, not its service accounts nor another realm’s', async () => {
    const [a, b] = [await createRealm(h()), await createRealm(h())];
    const token = await admin();
    const p = await createPerson(h(), { realmId: a, username: `cand_${Date.now() % 100000}` });
    await createService(h(), p, 'svc1');
    await createPerson(h(), { realmId: b, username: `cand_b${Date.now() % 100000}` });
    const res = await as(h(), token).get(`/api/perm/realms/${a}/candidates?q=cand_`);
    expect(res.body.data.items).toEqual([{ id: p.id, username: p.username, kind: 'person' }]);
  });
});

describeBothDbs('the last admin of master (A-40)', (h) => {
  it('is never unbound, by itself or anybody, while it is the only enabled one', async () => {
    const token = await h().login();
    const adminId = (await h().ctx.repos.accounts.findAccountByUsername('master', 'admin'))!.id;
    const res = await as(h(), token).delete(assignmentUrl('master', adminId, 'admin'));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(1063);
    expect(await h().ctx.services.roles.isLastMasterAdmin(adminId)).toBe(true);
    expect(await h().ctx.services.roles.countMasterAdmins()).toBe(1);

    // a second administrator that is disabled does not count
    const second = await createPerson(h(), { realmId: 'master', disabled: true });
    await bindRole(h(), second, 'admin', 'master');
    expect(await h().ctx.services.roles.isLastMasterAdmin(adminId)).toBe(true);
    expect(await h().ctx.services.roles.isLastMasterAdmin(second.id)).toBe(false);
    expect((await as(h(), token).delete(assignmentUrl('master', adminId, 'admin'))).body.code).toBe(1063);
    expect((await auditRows(h(), 'master', 'role.unbind')).length).toBe(0);
  });

  it('two administrators removing each other at the same moment: exactly one succeeds', async () => {
    const first = await createPerson(h(), { realmId: 'master' });
    const second = await createPerson(h(), { realmId: 'master' });
    await bindRole(h(), first, 'admin', 'master');
    await bindRole(h(), second, 'admin', 'master');
    const adminId = (await h().ctx.repos.accounts.findAccountByUsername('master', 'admin'))!.id;
    // the bootstrap admin steps down so that these two are the only ones
    expect((await as(h(), await h().login()).delete(assignmentUrl('master', adminId, 'admin'))).status).toBe(200);
    const [t1, t2] = [await tokenFor(h(), first), await tokenFor(h(), second)];
    const answers = await Promise.all([
      as(h(), t1).delete(assignmentUrl('master', second.id, 'admin')),
      as(h(), t2).delete(assignmentUrl('master', first.id, 'admin')),
    ]);
    const codes = answers.map((a) => a.body.code).sort();
    // the loser is refused either as the last admin or, having just lost admin, by the guard
    expect(codes[0]).toBe(0);
    expect([1003, 1063]).toContain(codes[1]);
    expect(await h().ctx.services.roles.countMasterAdmins()).toBe(1);
  });
});
