/**
 * SQL for roles and role bindings (the only writer of both tables). Custom roles belong to
 * one realm (`realm_id`); built-in roles have none and exist in every realm. A binding gives
 * an account a role in one realm. Reads join `accounts` for names and states; this file
 * never writes it.
 */
import { sql, type Selectable } from 'kysely';
import { newId } from '../platform/crypto.js';
import type { Db } from '../platform/db.js';
import { MASTER_REALM, type PermissionGrant } from './builtin-roles.js';
import type { RoleTable } from './perm.tables.js';
import './perm.tables.js';

export interface BoundRole {
  id: string;
  name: string;
  description: string;
  permissions: PermissionGrant[];
  /** realm the binding applies to */
  scopeRealmId: string;
}

/** A role as the services read it: permissions parsed. */
export interface RoleRecord {
  id: string;
  /** null: built-in */
  realm_id: string | null;
  name: string;
  description: string;
  permissions: PermissionGrant[];
  builtin: boolean;
  created_at: number;
}

/** A realm's custom role as realm export/import moves it (listRealmRoles / upsertRealmRole). */
export interface RealmRoleRow {
  id: string;
  realm_id: string;
  name: string;
  description: string;
  permissions: PermissionGrant[];
  created_at: number;
}

export interface BindingRow {
  account_id: string;
  username: string;
  kind: 'person' | 'service';
  disabled: number;
  role_id: string;
  role_name: string;
  realm_id: string;
  created_at: number;
}

export interface BindingQuery {
  roleId?: string | undefined;
  accountId?: string | undefined;
  /** part of the account's user name */
  q?: string | undefined;
}

const toRecord = (r: Selectable<RoleTable>): RoleRecord => ({
  id: r.id,
  realm_id: r.realm_id,
  name: r.name,
  description: r.description,
  permissions: JSON.parse(r.permissions) as PermissionGrant[],
  builtin: Number(r.builtin) === 1,
  created_at: Number(r.created_at),
});

/** LIKE with the user's text taken literally ('%' typed is '%' searched). */
const likeContains = (text: string) => sql<string>`${`%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;

export function createRoleRepo(db: Db) {
  /** Roles a realm sees: the built-in ones (`admin` only in master, the one realm it is bound in) and its own. */
  function visibleIn(trx: Db, realmId: string) {
    const s = trx.selectFrom('roles').where((eb) => eb.or([eb('realm_id', 'is', null), eb('realm_id', '=', realmId)]));
    return realmId === MASTER_REALM ? s : s.where('roles.id', '!=', 'admin');
  }

  function bindings(trx: Db, realmId: string, q: BindingQuery) {
    let s = trx
      .selectFrom('role_bindings')
      .innerJoin('accounts', 'accounts.id', 'role_bindings.account_id')
      .innerJoin('roles', 'roles.id', 'role_bindings.role_id')
      .where('role_bindings.realm_id', '=', realmId);
    if (q.roleId) s = s.where('role_bindings.role_id', '=', q.roleId);
    if (q.accountId) s = s.where('role_bindings.account_id', '=', q.accountId);
    if (q.q) s = s.where('accounts.username_norm', 'like', likeContains(q.q));
    return s;
  }

  return {
    async upsertBuiltinRole(role: { id: string; name: string; description: string; permissions: PermissionGrant[] }, now: number, trx: Db = db): Promise<void> {
      const permissions = JSON.stringify(role.permissions);
      await trx
        .insertInto('roles')
        .values({ id: role.id, realm_id: null, name: role.name, description: role.description, permissions, builtin: 1, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet({ permissions, description: role.description }))
        .execute();
    },
    async bindRole(accountId: string, roleId: string, realmId: string, now: number, trx: Db = db): Promise<boolean> {
      const res = await trx
        .insertInto('role_bindings')
        .values({ account_id: accountId, role_id: roleId, realm_id: realmId, created_at: now })
        .onConflict((oc) => oc.columns(['account_id', 'role_id', 'realm_id']).doNothing())
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async unbindRole(accountId: string, roleId: string, realmId: string, trx: Db = db): Promise<boolean> {
      const res = await trx
        .deleteFrom('role_bindings')
        .where('account_id', '=', accountId)
        .where('role_id', '=', roleId)
        .where('realm_id', '=', realmId)
        .executeTakeFirst();
      return Number(res.numDeletedRows) === 1;
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

    /** A role as `realmId` sees it (built-in, or that realm's own); another realm's role is not found (A-39). */
    async findRoleInRealm(realmId: string, roleId: string, trx: Db = db): Promise<RoleRecord | undefined> {
      const row = await visibleIn(trx, realmId).selectAll().where('id', '=', roleId).executeTakeFirst();
      return row && toRecord(row);
    },
    /** Any role of that realm (built-in ones included) whose name equals `name` without case. */
    async findRoleByName(realmId: string, name: string, trx: Db = db): Promise<RoleRecord | undefined> {
      const row = await visibleIn(trx, realmId)
        .selectAll()
        .where(sql<string>`lower(name)`, '=', name.toLowerCase())
        .executeTakeFirst();
      return row && toRecord(row);
    },
    /** Built-in roles first, then the realm's own by name; with how many accounts hold each in the realm. */
    async listRolesVisibleIn(realmId: string, page: { limit: number; offset: number }, trx: Db = db): Promise<(RoleRecord & { bindings: number })[]> {
      const rows = await visibleIn(trx, realmId)
        .selectAll('roles')
        .select((eb) =>
          eb
            .selectFrom('role_bindings')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('role_bindings.role_id', '=', 'roles.id')
            .where('role_bindings.realm_id', '=', realmId)
            .as('bindings'),
        )
        .orderBy('builtin', 'desc')
        .orderBy(sql`lower(name)`)
        .orderBy('id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map((r) => ({ ...toRecord(r), bindings: Number(r.bindings ?? 0) }));
    },
    async countRolesVisibleIn(realmId: string, trx: Db = db): Promise<number> {
      const row = await visibleIn(trx, realmId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async insertRole(row: RealmRoleRow, trx: Db = db): Promise<void> {
      await trx
        .insertInto('roles')
        .values({ ...row, permissions: JSON.stringify(row.permissions), builtin: 0 })
        .execute();
    },
    /** Changes a custom role of that realm; false when there is none (built-in roles never change here). */
    async updateRole(
      realmId: string,
      roleId: string,
      patch: Partial<Pick<RealmRoleRow, 'name' | 'description' | 'permissions'>>,
      trx: Db = db,
    ): Promise<boolean> {
      const set = { ...patch, ...(patch.permissions ? { permissions: JSON.stringify(patch.permissions) } : {}) } as Record<string, string>;
      if (Object.keys(set).length === 0) return true;
      const res = await trx.updateTable('roles').set(set).where('realm_id', '=', realmId).where('id', '=', roleId).where('builtin', '=', 0).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /** Deletes a custom role of that realm and its bindings; answers how many bindings went with it, or null when there was no such role. */
    async deleteRole(realmId: string, roleId: string, trx: Db = db): Promise<number | null> {
      const unbound = await trx.deleteFrom('role_bindings').where('role_id', '=', roleId).where('realm_id', '=', realmId).executeTakeFirst();
      const res = await trx.deleteFrom('roles').where('realm_id', '=', realmId).where('id', '=', roleId).where('builtin', '=', 0).executeTakeFirst();
      return Number(res.numDeletedRows) === 1 ? Number(unbound.numDeletedRows) : null;
    },

    /** The realm's custom roles (realm export, issue 11). */
    async listRealmRoles(realmId: string, trx: Db = db): Promise<RealmRoleRow[]> {
      const rows = await trx.selectFrom('roles').selectAll().where('realm_id', '=', realmId).where('builtin', '=', 0).orderBy('id').execute();
      return rows.map((r) => {
        const rec = toRecord(r);
        return { id: rec.id, realm_id: realmId, name: rec.name, description: rec.description, permissions: rec.permissions, created_at: rec.created_at };
      });
    },
    /**
     * Realm import (issue 11): the realm's role of that name (any case) takes the row's
     * description and permissions; without one, the row is inserted — under its own id when
     * that id is free, else under a new one (an import into a new realm id must never touch
     * the source realm's role of the same id). Answers the id the role has in `row.realm_id`.
     * The caller validates the row first (contracts roleCreateBody).
     */
    async upsertRealmRole(row: RealmRoleRow, trx: Db = db): Promise<{ id: string; created: boolean }> {
      const existing = await trx
        .selectFrom('roles')
        .select('id')
        .where('realm_id', '=', row.realm_id)
        .where(sql<string>`lower(name)`, '=', row.name.toLowerCase())
        .executeTakeFirst();
      if (existing) {
        await trx
          .updateTable('roles')
          .set({ description: row.description, permissions: JSON.stringify(row.permissions) })
          .where('id', '=', existing.id)
          .where('builtin', '=', 0)
          .execute();
        return { id: existing.id, created: false };
      }
      const taken = await trx.selectFrom('roles').select('id').where('id', '=', row.id).executeTakeFirst();
      const id = taken ? newId() : row.id;
      await trx
        .insertInto('roles')
        .values({ ...row, id, permissions: JSON.stringify(row.permissions), builtin: 0 })
        .execute();
      return { id, created: true };
    },

    listBindings(realmId: string, q: BindingQuery & { limit: number; offset: number }, trx: Db = db): Promise<BindingRow[]> {
      return bindings(trx, realmId, q)
        .select([
          'role_bindings.account_id',
          'accounts.username',
          'accounts.kind',
          'accounts.disabled',
          'role_bindings.role_id',
          'roles.name as role_name',
          'role_bindings.realm_id',
          'role_bindings.created_at',
        ])
        .orderBy('role_bindings.created_at', 'desc')
        .orderBy('role_bindings.account_id')
        .orderBy('role_bindings.role_id')
        .limit(q.limit)
        .offset(q.offset)
        .execute();
    },
    async countBindings(realmId: string, q: BindingQuery, trx: Db = db): Promise<number> {
      const row = await bindings(trx, realmId, q)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Enabled accounts holding `admin` in master: the platform's administrators. */
    async countMasterAdmins(trx: Db = db): Promise<number> {
      const row = await trx
        .selectFrom('role_bindings')
        .innerJoin('accounts', 'accounts.id', 'role_bindings.account_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('role_bindings.role_id', '=', 'admin')
        .where('role_bindings.realm_id', '=', MASTER_REALM)
        .where('accounts.disabled', '=', 0)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /**
     * True when `accountId` is the only enabled account holding `admin` in master: removing
     * that binding, or disabling or deleting the account, would leave the platform without an
     * administrator. Call it inside the transaction that makes the change, before the change:
     * it first locks the master admin bindings (a no-op UPDATE: row locks on PostgreSQL, the
     * write lock on SQLite), so two administrators removing each other at the same moment
     * are decided one after the other and the second sees the first's change.
     */
    async isLastMasterAdmin(accountId: string, trx: Db = db): Promise<boolean> {
      await trx
        .updateTable('role_bindings')
        .set((eb) => ({ created_at: eb.ref('created_at') }))
        .where('role_id', '=', 'admin')
        .where('realm_id', '=', MASTER_REALM)
        .execute();
      const rows = await trx
        .selectFrom('role_bindings')
        .innerJoin('accounts', 'accounts.id', 'role_bindings.account_id')
        .select('role_bindings.account_id')
        .where('role_bindings.role_id', '=', 'admin')
        .where('role_bindings.realm_id', '=', MASTER_REALM)
        .where('accounts.disabled', '=', 0)
        .execute();
      return rows.length === 1 && rows[0]!.account_id === accountId;
    },

    /** Realm deletion (issue 11): the realm's bindings and its custom roles. */
    async deleteAllInRealm(realmId: string, trx: Db): Promise<void> {
      await trx.deleteFrom('role_bindings').where('realm_id', '=', realmId).execute();
      await trx
        .deleteFrom('role_bindings')
        .where('role_id', 'in', (eb) => eb.selectFrom('roles').select('id').where('realm_id', '=', realmId))
        .execute();
      await trx.deleteFrom('roles').where('realm_id', '=', realmId).execute();
    },
  };
}

export type RoleRepo = ReturnType<typeof createRoleRepo>;
