/**
 * Built-in roles (DESIGN.md §4). `admin` holds everything in every realm; realm roles are
 * scoped by their binding. Every account also holds its own user-area pages (SELF_PERMISSIONS).
 */
import { ACTIONS, PERMISSION_CATALOGUE, PERMISSION_IDS, READ_ACTIONS, SELF_PERMISSIONS, type Action, type PermissionId } from '@umbo/contracts';

/** The realm created at first start; `admin` bound here reaches every realm. */
export const MASTER_REALM = 'master';

export interface PermissionGrant {
  permissionId: PermissionId;
  actions: Action[];
}

const READ: Action[] = [...READ_ACTIONS];
const all = (ids: readonly PermissionId[], actions: Action[] = [...ACTIONS]) => ids.map((permissionId) => ({ permissionId, actions }));

/**
 * What a realm role covers: every permission that means something inside one realm, the
 * realm's own audit trail, dashboard and roles included (issue 11). Platform permissions
 * (the outbox: every realm's mail) stay with `admin` of master.
 */
const REALM_IDS = PERMISSION_IDS.filter((p) => PERMISSION_CATALOGUE[p].scope === 'realm' && !SELF_PERMISSIONS.includes(p));
/** A realm-admin reads and exports its realm's audit trail; nobody edits or deletes it. */
const AUDIT_READ: Action[] = ['query', 'get', 'export'];
/** Creating and deleting realms are platform acts (admin of master): a realm-admin cannot delete its own realm. */
const DOMAIN_IN_REALM: Action[] = ACTIONS.filter((a) => a !== 'add' && a !== 'delete');
const realmAdminActions = (p: PermissionId): Action[] => (p === 'audit' ? AUDIT_READ : p === 'domain' ? DOMAIN_IN_REALM : [...ACTIONS]);

export const BUILTIN_ROLES = [
  { id: 'admin', name: 'admin', description: 'has all permissions', permissions: all(PERMISSION_IDS) },
  {
    id: 'realm-admin',
    name: 'realm-admin',
    description: 'manages one domain',
    permissions: REALM_IDS.map((permissionId) => ({ permissionId, actions: realmAdminActions(permissionId) })),
  },
  { id: 'realm-viewer', name: 'realm-viewer', description: 'reads one domain', permissions: all(REALM_IDS, READ) },
] as const satisfies readonly { id: string; name: string; description: string; permissions: PermissionGrant[] }[];

/** The implicit role every signed-in account has over its own account. */
export const SELF_ROLE = { id: 'user', name: 'user', description: 'own account', permissions: all(SELF_PERMISSIONS) };
