/**
 * A-40, no privilege escalation: whatever a caller gives — a new role, an edit, an
 * assignment — must lie within what the caller holds in that realm. Checked grant by grant
 * against the very decision the guard makes (perm.service allows), so "holds" means the same
 * thing everywhere.
 */
import { ACTIONS, REALM_PERMISSION_IDS, type Action } from '@umbo/contracts';
import type { PermissionGrant } from './builtin-roles.js';

/** `allows(permissionId, action)` of one caller in one realm. */
export type Holds = (permissionId: string, action: Action) => boolean;

/** The first grant among `grants` the caller does not hold, or undefined when all are held. */
export function firstNotHeld(holds: Holds, grants: readonly PermissionGrant[]): { permissionId: string; action: Action } | undefined {
  for (const g of grants) for (const action of g.actions) if (!holds(g.permissionId, action)) return { permissionId: g.permissionId, action };
  return undefined;
}

/** Everything a caller could put into a custom role of the realm: the realm permissions they hold there. */
export function grantableSet(holds: Holds): PermissionGrant[] {
  return REALM_PERMISSION_IDS.map((permissionId) => ({ permissionId, actions: ACTIONS.filter((a) => holds(permissionId, a)) })).filter(
    (g) => g.actions.length > 0,
  );
}

/** The same grants, each permission once and its actions in catalogue order (a role is a set, not a list). */
export function normaliseGrants(grants: readonly PermissionGrant[]): PermissionGrant[] {
  const byId = new Map<string, Set<Action>>();
  for (const g of grants) {
    const set = byId.get(g.permissionId) ?? new Set<Action>();
    for (const a of g.actions) set.add(a);
    byId.set(g.permissionId, set);
  }
  return REALM_PERMISSION_IDS.filter((id) => byId.has(id)).map((permissionId) => ({
    permissionId,
    actions: ACTIONS.filter((a) => byId.get(permissionId)!.has(a)),
  }));
}
