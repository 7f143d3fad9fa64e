/**
 * Built-in roles (DESIGN.md §4). `admin` holds everything in every realm; realm roles are
 * scoped by their binding. Every account also holds its own user-area pages (SELF_PERMISSIONS).
 */
import { ACTIONS, PERMISSION_IDS, SELF_PERMISSIONS, type Action, type PermissionId } from '@umbo/contracts';

export interface PermissionGrant {
  permissionId: PermissionId;
  actions: Action[];
}

const READ: Action[] = ['query', 'get'];
const all = (ids: readonly PermissionId[], actions: Action[] = [...ACTIONS]) => ids.map((permissionId) => ({ permissionId, actions }));

/** Pages only the platform (master realm) administrators reach. */
const PLATFORM_ONLY: PermissionId[] = ['outbox', 'role', 'audit'];
const REALM_IDS = PERMISSION_IDS.filter((p) => !PLATFORM_ONLY.includes(p) && !SELF_PERMISSIONS.includes(p));

export const BUILTIN_ROLES = [
  { id: 'admin', name: 'admin', description: 'has all permissions', permissions: all(PERMISSION_IDS) },
  { id: 'realm-admin', name: 'realm-admin', description: 'manages one domain', permissions: all(REALM_IDS) },
  { id: 'realm-viewer', name: 'realm-viewer', description: 'reads one domain', permissions: all(REALM_IDS, READ) },
] as const satisfies readonly { id: string; name: string; description: string; permissions: PermissionGrant[] }[];

/** The implicit role every signed-in account has over its own account. */
export const SELF_ROLE = { id: 'user', name: 'user', description: 'own account', permissions: all(SELF_PERMISSIONS) };
