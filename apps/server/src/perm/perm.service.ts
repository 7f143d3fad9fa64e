/**
 * Decides every permission (SPEC §6 "server-side enforcement", DESIGN.md §4) and renders
 * the current user's permission set in SPEC §3's shape.
 */
import type { Action, ActionEntity, CurrentUser, Permission, Role } from '@umbo/contracts';
import type { Account } from '../accounts/accounts.repo.js';
import { MASTER_REALM, SELF_ROLE, type PermissionGrant } from './builtin-roles.js';
import type { BoundRole, RoleRepo } from './roles.repo.js';

export { MASTER_REALM };

/**
 * A realm id no binding names: `allows(p, id, action, ANY_REALM)` is true only for a role that
 * reaches every realm (`admin` bound in master) and holds that permission — what "every realm"
 * (`*`) needs, whatever the role's id, since a service account's roles carry their owner's ids
 * with the content cut down to its grants.
 */
export const ANY_REALM = '\u0000';

export interface Principal {
  accountId: string;
  realmId: string;
  roles: BoundRole[];
  /** set for a service account: the person it acts for, whose permissions bound its own (issue 11) */
  ownerId?: string;
}

/**
 * A service account's grants and whether its owner still stands (directory/service-accounts.repo.ts,
 * passed in by the composition root: perm sits below the directory area).
 */
export type ServiceGrantsReader = (realmId: string, serviceId: string, ownerId: string) => Promise<{ grants: PermissionGrant[]; ownerActive: boolean }>;

/** The permissions of `role` that `grants` also name: what a service account holds through its owner's role. */
export function intersectGrants(role: BoundRole, grants: PermissionGrant[]): BoundRole {
  const permissions = role.permissions
    .map((p) => ({
      permissionId: p.permissionId,
      actions: p.actions.filter((a) => grants.some((g) => g.permissionId === p.permissionId && g.actions.includes(a))),
    }))
    .filter((p) => p.actions.length > 0);
  return { ...role, permissions };
}

function toPermission(roleId: string, g: PermissionGrant): Permission {
  const actions: ActionEntity[] = g.actions.map((action) => ({ action, describe: action, defaultCheck: false }));
  return { roleId, permissionId: g.permissionId, permissionName: g.permissionId, actions, actionEntitySet: actions, actionList: [...g.actions] };
}

export function createPermService(roles: RoleRepo, opts: { serviceGrants?: ServiceGrantsReader } = {}) {
  /**
   * A person holds its own pages and its bound roles. A service account (DESIGN.md §4) holds
   * its own pages and its grants INTERSECTED with its owner's roles as they are now: each of
   * the owner's roles cut down to the granted permission.actions, keeping its realm scope. So
   * it never reaches beyond its owner, a reduction of the owner's roles shrinks it on its next
   * call, and an owner that is disabled or gone leaves it its own pages only. Roles bound to
   * the service account itself count for nothing: its grants are the one source.
   */
  async function loadPrincipal(account: Pick<Account, 'id' | 'realm_id'> & Partial<Pick<Account, 'kind' | 'owner_id'>>): Promise<Principal> {
    const self: BoundRole = { ...SELF_ROLE, scopeRealmId: account.realm_id };
    if (account.kind === 'service' && account.owner_id) {
      const ownerId = account.owner_id;
      const [source, ownerRoles] = await Promise.all([
        opts.serviceGrants ? opts.serviceGrants(account.realm_id, account.id, ownerId) : { grants: [], ownerActive: false },
        roles.listBoundRoles(ownerId),
      ]);
      // Named for what they are: the id (and with it the realm reach) is the owner's role's, the
      // content only the grants — shown as the owner's role name it would pass for more than it is.
      const granted = source.ownerActive
        ? ownerRoles
            .map((r) => ({ ...intersectGrants(r, source.grants), name: 'grants', description: `granted within the owner's ${r.name}` }))
            .filter((r) => r.permissions.length > 0)
        : [];
      return { accountId: account.id, realmId: account.realm_id, roles: [self, ...granted], ownerId };
    }
    const bound = await roles.listBoundRoles(account.id);
    return { accountId: account.id, realmId: account.realm_id, roles: [self, ...bound] };
  }

  /**
   * `admin` bound in the master realm reaches every realm; any other binding reaches only
   * the realm it is bound in.
   */
  function allows(p: Principal, permissionId: string, action: Action, targetRealmId = p.realmId): boolean {
    return p.roles.some(
      (r) =>
        (r.scopeRealmId === targetRealmId || (r.id === 'admin' && r.scopeRealmId === MASTER_REALM)) &&
        r.permissions.some((g) => g.permissionId === permissionId && g.actions.includes(action)),
    );
  }

  function currentUser(account: Account, p: Principal): CurrentUser {
    const roles: Role[] = p.roles.map((r) => ({
      id: r.id,
      name: r.name,
      describe: r.description,
      realmId: r.scopeRealmId,
      permissions: r.permissions.map((g) => toPermission(r.id, g)),
    }));
    // The show flags (SPEC §6) follow the server's set, in the account's own realm: what the
    // console shows is what the guard would let through.
    const has = (id: string) => allows(p, id, 'query');
    return {
      id: account.id,
      name: account.username,
      avatar: account.avatar,
      realmId: account.realm_id,
      roles,
      showDomain: has('domain'),
      showDeveloper: has('userClient'),
      // administering a realm's service accounts, or managing one's own (userService)
      showServiceAccount: has('service') || has('userService'),
      showOAuth: has('oauthList'),
    };
  }

  return { loadPrincipal, allows, currentUser };
}

export type PermService = ReturnType<typeof createPermService>;
