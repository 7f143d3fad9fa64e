/**
 * Decides every permission (SPEC §6 "server-side enforcement", DESIGN.md §4) and renders
 * the current user's permission set in SPEC §3's shape.
 */
import type { Action, ActionEntity, CurrentUser, Permission, Role } from '@umbo/contracts';
import type { Account } from '../accounts/accounts.repo.js';
import { SELF_ROLE, type PermissionGrant } from './builtin-roles.js';
import type { BoundRole, RoleRepo } from './roles.repo.js';

export const MASTER_REALM = 'master';

export interface Principal {
  accountId: string;
  realmId: string;
  roles: BoundRole[];
}

function toPermission(roleId: string, g: PermissionGrant): Permission {
  const actions: ActionEntity[] = g.actions.map((action) => ({ action, describe: action, defaultCheck: false }));
  return { roleId, permissionId: g.permissionId, permissionName: g.permissionId, actions, actionEntitySet: actions, actionList: [...g.actions] };
}

export function createPermService(roles: RoleRepo) {
  async function loadPrincipal(account: Pick<Account, 'id' | 'realm_id'>): Promise<Principal> {
    const bound = await roles.listBoundRoles(account.id);
    const self: BoundRole = { ...SELF_ROLE, scopeRealmId: account.realm_id };
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
      permissions: r.permissions.map((g) => toPermission(r.id, g)),
    }));
    const has = (id: string) => allows(p, id, 'query');
    return {
      id: account.id,
      name: account.username,
      avatar: account.avatar,
      realmId: account.realm_id,
      roles,
      showDomain: has('domain'),
      showDeveloper: has('userClient'),
      showServiceAccount: has('service'),
      showOAuth: has('oauthList'),
    };
  }

  return { loadPrincipal, allows, currentUser };
}

export type PermService = ReturnType<typeof createPermService>;
