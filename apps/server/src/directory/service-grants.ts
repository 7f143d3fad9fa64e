/**
 * Who may give a service account which grants (A-40, DESIGN.md §4 "resources"). A grant
 * (permissionId.action) counts only where the owner holds it (perm.service intersects on every
 * call); here the checks that stop a grant or a password from reaching beyond the people
 * involved:
 *   - a grant the owner does not hold is refused (1051, holder 'owner');
 *   - what the service account would then hold must be held by the caller too, where it
 *     reaches (1051, holder 'caller'): otherwise a caller could set the grant, then the password
 *     (or the owner's door), and sign in as it;
 *   - setting the password of a service account that holds more than the caller is refused
 *     (1052): that is impersonating it.
 */
import { ACTIONS, GRANTABLE_PERMISSION_IDS, type Action } from '@umbo/contracts';
import type { Account } from '../accounts/accounts.repo.js';
import { SELF_ROLE, type PermissionGrant } from '../perm/builtin-roles.js';
import { ANY_REALM, intersectGrants, MASTER_REALM, type PermService, type Principal } from '../perm/perm.service.js';
import type { BoundRole } from '../perm/roles.repo.js';
import { fail } from '../platform/errors.js';

const reachesEveryRealm = (r: BoundRole) => r.id === 'admin' && r.scopeRealmId === MASTER_REALM;
const holds = (roles: readonly BoundRole[], permissionId: string, action: string) =>
  roles.some((r) => r.permissions.some((p) => p.permissionId === permissionId && (p.actions as string[]).includes(action)));

/** Same permission ids once, actions in catalogue order, empty ones dropped: how grants are stored. */
export function normaliseGrants(grants: readonly PermissionGrant[]): PermissionGrant[] {
  const byId = new Map<string, Set<Action>>();
  for (const g of grants) for (const a of g.actions) byId.set(g.permissionId, (byId.get(g.permissionId) ?? new Set()).add(a));
  return GRANTABLE_PERMISSION_IDS.filter((id) => byId.get(id)?.size).map((permissionId) => ({
    permissionId,
    actions: ACTIONS.filter((a) => byId.get(permissionId)!.has(a)),
  }));
}

/** Merges roles' permissions into one grant list (what the console shows as "effective"). */
function flatten(roles: readonly BoundRole[]): PermissionGrant[] {
  return normaliseGrants(roles.flatMap((r) => r.permissions));
}

export function createServiceGrants(perm: Pick<PermService, 'loadPrincipal' | 'allows'>) {
  /** The roles an account holds beyond its own pages. */
  async function rolesOf(account: Account): Promise<BoundRole[]> {
    return (await perm.loadPrincipal(account)).roles.filter((r) => r.id !== SELF_ROLE.id);
  }

  /** The first permission.action among `roles` the caller lacks where that role reaches, if any. */
  function beyond(caller: Principal, roles: readonly BoundRole[]): { permissionId: string; action: Action } | undefined {
    for (const r of roles) {
      for (const g of r.permissions) {
        for (const action of g.actions) {
          const realm = reachesEveryRealm(r) ? ANY_REALM : r.scopeRealmId;
          if (!perm.allows(caller, g.permissionId, action, realm)) return { permissionId: g.permissionId, action };
        }
      }
    }
    return undefined;
  }

  /** The grants to store, or 1051 naming the first one the owner or the caller does not hold. */
  async function checkGrants(caller: Principal, owner: Account, wanted: readonly PermissionGrant[]): Promise<PermissionGrant[]> {
    const next = normaliseGrants(wanted);
    const ownerRoles = await rolesOf(owner);
    for (const g of next) {
      for (const action of g.actions) {
        if (!holds(ownerRoles, g.permissionId, action)) throw fail('SERVICE_GRANT_TOO_WIDE', { permissionId: g.permissionId, action, holder: 'owner' });
      }
    }
    const over = beyond(
      caller,
      ownerRoles.map((r) => intersectGrants(r, next)),
    );
    if (over) throw fail('SERVICE_GRANT_TOO_WIDE', { ...over, holder: 'caller' });
    return next;
  }

  /** 1052 when the service account can do something the caller cannot. */
  async function assertNotAboveCaller(caller: Principal, service: Account): Promise<void> {
    const over = beyond(caller, await rolesOf(service));
    if (over) throw fail('SERVICE_ABOVE_CALLER', over);
  }

  /** Stored grants, what the caller may grant (held by the owner, and by the caller where it would reach), and what counts now. */
  async function describe(caller: Principal, owner: Account, service: Account, grants: PermissionGrant[]) {
    const [ownerRoles, serviceRoles] = await Promise.all([rolesOf(owner), rolesOf(service)]);
    const grantable: PermissionGrant[] = [];
    for (const permissionId of GRANTABLE_PERMISSION_IDS) {
      const actions = ACTIONS.filter((action) => {
        if (!holds(ownerRoles, permissionId, action)) return false;
        const one = [{ permissionId, actions: [action] }];
        return !beyond(
          caller,
          ownerRoles.map((r) => intersectGrants(r, one)),
        );
      });
      if (actions.length) grantable.push({ permissionId, actions });
    }
    return { grants: normaliseGrants(grants), grantable, effective: flatten(serviceRoles) };
  }

  /** Audit: the names of the permission ids whose actions changed (`grants.person`), never more. */
  function changedIds(before: readonly PermissionGrant[], after: readonly PermissionGrant[]): string[] {
    const key = (gs: readonly PermissionGrant[], id: string) => [...(gs.find((g) => g.permissionId === id)?.actions ?? [])].sort().join(',');
    const ids = new Set([...before, ...after].map((g) => g.permissionId));
    return [...ids].filter((id) => key(before, id) !== key(after, id)).map((id) => `grants.${id}`);
  }

  return { checkGrants, assertNotAboveCaller, describe, changedIds };
}
