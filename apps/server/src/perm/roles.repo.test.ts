/**
 * roles.repo functions other areas call: realm export/import (listRealmRoles,
 * upsertRealmRole) and realm deletion (deleteAllInRealm), each confined to the realm it names.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { bindRole, createPerson, createRealm } from '../test/kit.js';

describeBothDbs('roles repository for realm export, import and deletion', (h) => {
  const repo = () => h().ctx.repos.roles;
  const role = (realmId: string, id: string, name: string) => ({
    id,
    realm_id: realmId,
    name,
    description: 'a role',
    permissions: [{ permissionId: 'person' as const, actions: ['query' as const] }],
    created_at: h().clock.now(),
  });

  it('lists a realm’s custom roles only, and upserts by name without touching another realm’s role of the same id', async () => {
    const [a, b] = [await createRealm(h()), await createRealm(h())];
    await repo().insertRole(role(a, `ops-${a}`, 'ops'));
    expect((await repo().listRealmRoles(a)).map((r) => [r.id, r.name, r.permissions])).toEqual([
      [`ops-${a}`, 'ops', [{ permissionId: 'person', actions: ['query'] }]],
    ]);
    expect(await repo().listRealmRoles(b)).toEqual([]);

    // the same document imported into b: same id taken by a's role, so b's gets a new one
    const [exported] = await repo().listRealmRoles(a);
    const into = await repo().upsertRealmRole({ ...exported!, realm_id: b });
    expect(into.created).toBe(true);
    expect(into.id).not.toBe(exported!.id);
    expect((await repo().findRoleInRealm(a, exported!.id))?.realm_id).toBe(a);

    // imported again (any case of the name): replaced in place
    const again = await repo().upsertRealmRole({ ...exported!, realm_id: b, name: 'OPS', permissions: [{ permissionId: 'audit', actions: ['get'] }] });
    expect(again).toEqual({ id: into.id, created: false });
    expect((await repo().findRoleInRealm(b, into.id))?.permissions).toEqual([{ permissionId: 'audit', actions: ['get'] }]);
    expect((await repo().findRoleInRealm(a, exported!.id))?.permissions).toEqual([{ permissionId: 'person', actions: ['query'] }]);
  });

  it('deleteAllInRealm removes the realm’s roles and bindings and nothing of another realm', async () => {
    const [a, b] = [await createRealm(h()), await createRealm(h())];
    await repo().insertRole(role(a, `gone-${a}`, 'gone'));
    await repo().insertRole(role(b, `kept-${b}`, 'kept'));
    const pa = await createPerson(h(), { realmId: a });
    const pb = await createPerson(h(), { realmId: b });
    await bindRole(h(), pa, `gone-${a}`);
    await bindRole(h(), pa, 'realm-viewer');
    await bindRole(h(), pb, `kept-${b}`);
    await bindRole(h(), pb, 'realm-admin');
    await h()
      .dbh.db.transaction()
      .execute((trx) => repo().deleteAllInRealm(a, trx));
    expect(await repo().listRealmRoles(a)).toEqual([]);
    expect(await repo().listBoundRoles(pa.id)).toEqual([]);
    expect((await repo().listBoundRoles(pb.id)).map((r) => r.id).sort()).toEqual([`kept-${b}`, 'realm-admin']);
    expect(await repo().listRealmRoles(b)).toHaveLength(1);
    // the built-in roles are nobody's realm's
    expect(await repo().findRoleInRealm(b, 'realm-viewer')).toBeDefined();
  });
});
