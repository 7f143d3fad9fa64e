/** SQL for roles and role bindings (the only writer of both tables). */
import type { Db } from '../platform/db.js';
import type { PermissionGrant } from './builtin-roles.js';
import './perm.tables.js';

export interface BoundRole {
  id: string;
  name: string;
  description: string;
  permissions: PermissionGrant[];
  /** realm the binding applies to */
  scopeRealmId: string;
}

export function createRoleRepo(db: Db) {
  return {
    async upsertBuiltinRole(role: { id: string; name: string; description: string; permissions: PermissionGrant[] }, now: number, trx: Db = db): Promise<void> {
      const permissions = JSON.stringify(role.permissions);
      await trx
        .insertInto('roles')
        .values({ id: role.id, realm_id: null, name: role.name, description: role.description, permissions, builtin: 1, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet({ permissions, description: role.description }))
        .execute();
    },
    async bindRole(accountId: string, roleId: string, realmId: string, now: number, trx: Db = db): Promise<void> {
      await trx
        .insertInto('role_bindings')
        .values({ account_id: accountId, role_id: roleId, realm_id: realmId, created_at: now })
        .onConflict((oc) => oc.columns(['account_id', 'role_id', 'realm_id']).doNothing())
        .execute();
    },
    async listBoundRoles(accountId: string, trx: Db = db): Promise<BoundRole[]> {
      const rows = await trx
        .selectFrom('role_bindings')
        .innerJoin('roles', 'roles.id', 'role_bindings.role_id')
        .select(['roles.id', 'roles.name', 'roles.description', 'roles.permissions', 'role_bindings.realm_id'])
        .where('role_bindings.account_id', '=', accountId)
        .orderBy('roles.id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        permissions: JSON.parse(r.permissions) as PermissionGrant[],
        scopeRealmId: r.realm_id,
      }));
    },
  };
}

export type RoleRepo = ReturnType<typeof createRoleRepo>;
