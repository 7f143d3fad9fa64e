/**
 * Roles and their assignment in one realm (issue 11, SPEC §6, DESIGN.md §4). The guard has
 * already decided `role.<action>` in the realm the path names, before any lookup; the
 * rules here are the ones the guard cannot know:
 *   - nobody gives what they do not hold: a role made, edited, deleted, assigned or
 *     unassigned must lie within the caller's own permissions in that realm;
 *   - `admin` is bound in master only, which only an admin of master can do;
 *   - the last enabled `admin` of master is never unbound (nor disabled or deleted: the
 *     account services ask isLastMasterAdmin in their own transaction);
 *   - built-in roles never change; a custom role is seen in its own realm only.
 * Every change records its audit event in the change's transaction.
 */
import {
  ACTIONS,
  PERMISSION_CATALOGUE,
  PERMISSION_IDS,
  type AssignmentBody,
  type CatalogueView,
  type RoleCreateBody,
  type RoleList,
  type RoleUpdateBody,
  type RoleView,
} from '@umbo/contracts';
import type { AccountRepo } from '../accounts/accounts.repo.js';
import type { AuditActor, AuditService } from '../audit/audit.service.js';
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/crypto.js';
import { isUniqueViolation, type Db, type Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import { MASTER_REALM } from './builtin-roles.js';
import { firstNotHeld, grantableSet, normaliseGrants, type Holds } from './escalation.js';
import type { PermService, Principal } from './perm.service.js';
import type { RoleRecord, RoleRepo } from './roles.repo.js';

/** Who is asking, for the rules and the audit trail. */
export interface Caller {
  principal: Principal;
  actor: AuditActor | null;
  request?: { ip: string; userAgent: string } | undefined;
}

export interface RolesDeps {
  roles: RoleRepo;
  accounts: Pick<AccountRepo, 'findAccountById' | 'listAccounts'>;
  perm: Pick<PermService, 'allows'>;
  audit: Pick<AuditService, 'record'>;
  /** realms sit above perm: the composition root passes their lookup in */
  realmExists: (realmId: string) => Promise<boolean>;
  clock: Clock;
  transact: Transact;
}

const FIELDS = ['name', 'description', 'permissions'] as const;

export function createRolesService(deps: RolesDeps) {
  const { roles, accounts, perm, audit, clock, transact } = deps;

  const holdsIn =
    (caller: Caller, realmId: string): Holds =>
    (permissionId, action) =>
      perm.allows(caller.principal, permissionId, action, realmId);

  /** every grant of `role` is the caller's in that realm (refused with the first one that is not). */
  function assertWithin(caller: Caller, realmId: string, role: Pick<RoleRecord, 'permissions'>): void {
    const missing = firstNotHeld(holdsIn(caller, realmId), role.permissions);
    if (missing) throw fail('ROLE_TOO_WIDE', missing);
  }
  const within = (caller: Caller, realmId: string, role: Pick<RoleRecord, 'permissions'>) => !firstNotHeld(holdsIn(caller, realmId), role.permissions);

  async function assertRealm(realmId: string): Promise<void> {
    assertThat(await deps.realmExists(realmId), 'NOT_FOUND');
  }

  /** A role `realmId` may use: built-in (admin only in master) or the realm's own. */
  async function findRole(realmId: string, roleId: string, trx?: Db): Promise<RoleRecord> {
    const role = await roles.findRoleInRealm(realmId, roleId, trx);
    assertThat(role, 'NOT_FOUND');
    return role;
  }

  const event = (caller: Caller, realmId: string, action: string, target: { type: string; id: string; name: string }) => ({
    realmId,
    actor: caller.actor,
    request: caller.request,
    action,
    target,
    result: 'ok' as const,
  });

  function view(caller: Caller, realmId: string, r: RoleRecord & { bindings: number }): RoleView {
    return {
      id: r.id,
      realmId: r.realm_id,
      name: r.name,
      description: r.description,
      builtin: r.builtin,
      permissions: r.permissions.map((g) => ({ permissionId: g.permissionId, actions: [...g.actions] })),
      bindings: r.bindings,
      grantable: within(caller, realmId, r),
    };
  }

  function catalogue(): CatalogueView {
    return {
      actions: [...ACTIONS],
      permissions: PERMISSION_IDS.map((permissionId) => ({ permissionId, ...PERMISSION_CATALOGUE[permissionId], actions: [...ACTIONS] })),
    };
  }

  async function listRoles(caller: Caller, realmId: string, page: { limit: number; offset: number }): Promise<RoleList> {
    await assertRealm(realmId);
    const [rows, total] = await Promise.all([roles.listRolesVisibleIn(realmId, page), roles.countRolesVisibleIn(realmId)]);
    return { items: rows.map((r) => view(caller, realmId, r)), total, grantable: grantableSet(holdsIn(caller, realmId)) };
  }

  async function getRole(caller: Caller, realmId: string, roleId: string): Promise<RoleView> {
    await assertRealm(realmId);
    const role = await findRole(realmId, roleId);
    const bindings = await roles.countBindings(realmId, { roleId });
    return view(caller, realmId, { ...role, bindings });
  }

  async function assertNameFree(realmId: string, name: string, exceptId?: string, trx?: Db): Promise<void> {
    const clash = await roles.findRoleByName(realmId, name, trx);
    if (clash && clash.id !== exceptId) throw fail('ROLE_NAME_TAKEN', { field: 'name' });
  }

  /** The unique index is the last word when two requests take one name at the same moment. */
  async function nameRace<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw fail('ROLE_NAME_TAKEN', { field: 'name' });
      throw err;
    }
  }

  async function createRole(caller: Caller, realmId: string, body: RoleCreateBody): Promise<RoleView> {
    await assertRealm(realmId);
    const permissions = normaliseGrants(body.permissions);
    assertWithin(caller, realmId, { permissions });
    const row = { id: newId(), realm_id: realmId, name: body.name, description: body.description, permissions, created_at: clock.now() };
    await nameRace(() =>
      transact(async (trx) => {
        await assertNameFree(realmId, body.name, undefined, trx);
        await roles.insertRole(row, trx);
        await audit.record({ ...event(caller, realmId, 'role.create', { type: 'role', id: row.id, name: row.name }), changes: [...FIELDS] }, trx);
      }),
    );
    return view(caller, realmId, { ...row, builtin: false, bindings: 0 });
  }

  async function updateRole(caller: Caller, realmId: string, roleId: string, body: RoleUpdateBody): Promise<RoleView> {
    await assertRealm(realmId);
    const role = await findRole(realmId, roleId);
    if (role.builtin) throw fail('ROLE_BUILTIN');
    // Changing a role wider than oneself would change what others hold beyond one's own reach.
    assertWithin(caller, realmId, role);
    const permissions = body.permissions && normaliseGrants(body.permissions);
    if (permissions) assertWithin(caller, realmId, { permissions });
    const next = { name: body.name ?? role.name, description: body.description ?? role.description, permissions: permissions ?? role.permissions };
    const changes = FIELDS.filter((f) => JSON.stringify(next[f]) !== JSON.stringify(role[f]));
    await nameRace(() =>
      transact(async (trx) => {
        if (changes.includes('name')) await assertNameFree(realmId, next.name, roleId, trx);
        const patch = Object.fromEntries(changes.map((f) => [f, next[f]]));
        assertThat(await roles.updateRole(realmId, roleId, patch, trx), 'NOT_FOUND');
        if (changes.length) await audit.record({ ...event(caller, realmId, 'role.update', { type: 'role', id: roleId, name: next.name }), changes }, trx);
      }),
    );
    return getRole(caller, realmId, roleId);
  }

  async function deleteRole(caller: Caller, realmId: string, roleId: string): Promise<void> {
    await assertRealm(realmId);
    const role = await findRole(realmId, roleId);
    if (role.builtin) throw fail('ROLE_BUILTIN');
    assertWithin(caller, realmId, role);
    await transact(async (trx) => {
      const unbound = await roles.deleteRole(realmId, roleId, trx);
      assertThat(unbound !== null, 'NOT_FOUND');
      await audit.record({ ...event(caller, realmId, 'role.delete', { type: 'role', id: roleId, name: role.name }), detail: { bindings: unbound } }, trx);
    });
  }

  async function listAssignments(
    realmId: string,
    q: { roleId?: string | undefined; accountId?: string | undefined; q?: string | undefined; limit: number; offset: number },
  ) {
    await assertRealm(realmId);
    const [rows, total] = await Promise.all([roles.listBindings(realmId, q), roles.countBindings(realmId, q)]);
    return {
      items: rows.map((r) => ({
        accountId: r.account_id,
        username: r.username,
        kind: r.kind,
        disabled: Number(r.disabled) === 1,
        roleId: r.role_id,
        roleName: r.role_name,
        realmId: r.realm_id,
        createdAt: Number(r.created_at),
      })),
      total,
    };
  }

  /** A person account of that realm (service accounts get resources from their owner, not roles). */
  async function findPerson(realmId: string, accountId: string, trx?: Db) {
    const account = await accounts.findAccountById(realmId, accountId, trx);
    assertThat(account, 'USER_NOT_FOUND', { field: 'accountId' });
    if (account.kind !== 'person') throw fail('INVALID_PARAMETER', { field: 'accountId', reason: 'service accounts hold resources, not roles' });
    return account;
  }

  async function assign(caller: Caller, realmId: string, body: AssignmentBody): Promise<{ created: boolean }> {
    await assertRealm(realmId);
    const role = await findRole(realmId, body.roleId).catch((err: unknown) => {
      // `admin` elsewhere than master is a rule, not a missing role: say so.
      if (body.roleId === 'admin') throw fail('ADMIN_MASTER_ONLY', { field: 'roleId' });
      throw err;
    });
    assertWithin(caller, realmId, role);
    return transact(async (trx) => {
      const account = await findPerson(realmId, body.accountId, trx);
      const created = await roles.bindRole(account.id, role.id, realmId, clock.now(), trx);
      if (created) {
        const target = { type: 'account', id: account.id, name: account.username };
        await audit.record({ ...event(caller, realmId, 'role.bind', target), detail: { roleId: role.id, roleName: role.name } }, trx);
      }
      return { created };
    });
  }

  async function unassign(caller: Caller, realmId: string, accountId: string, roleId: string): Promise<void> {
    await assertRealm(realmId);
    const role = await findRole(realmId, roleId);
    assertWithin(caller, realmId, role);
    await transact(async (trx) => {
      const account = await accounts.findAccountById(realmId, accountId, trx);
      assertThat(account, 'NOT_FOUND');
      if (role.id === 'admin' && realmId === MASTER_REALM && (await roles.isLastMasterAdmin(accountId, trx))) throw fail('LAST_MASTER_ADMIN');
      assertThat(await roles.unbindRole(accountId, roleId, realmId, trx), 'NOT_FOUND');
      const target = { type: 'account', id: account.id, name: account.username };
      await audit.record({ ...event(caller, realmId, 'role.unbind', target), detail: { roleId: role.id, roleName: role.name } }, trx);
    });
  }

  /** Person accounts of the realm whose name, email or phone contains `q`: whom the assign dialog offers. */
  async function candidates(realmId: string, q: string, limit: number) {
    await assertRealm(realmId);
    const rows = await accounts.listAccounts(realmId, { kind: 'person', q: q || undefined, limit, offset: 0 });
    return { items: rows.map((a) => ({ id: a.id, username: a.username, kind: a.kind })) };
  }

  return {
    catalogue,
    listRoles,
    getRole,
    createRole,
    updateRole,
    deleteRole,
    listAssignments,
    assign,
    unassign,
    candidates,
    /** For the account services' disable and delete (issue 11): see roles.repo isLastMasterAdmin. */
    isLastMasterAdmin: (accountId: string, trx?: Db) => roles.isLastMasterAdmin(accountId, trx),
    countMasterAdmins: (trx?: Db) => roles.countMasterAdmins(trx),
  };
}

export type RolesService = ReturnType<typeof createRolesService>;
