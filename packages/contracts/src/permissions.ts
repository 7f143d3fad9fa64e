/**
 * Permission ids and actions (SPEC §6, DESIGN.md §4). A permission id is a console route
 * name; a check reads `permissionId.action`.
 */
export const ACTIONS = ['add', 'delete', 'edit', 'update', 'query', 'get', 'enable', 'disable', 'import', 'export'] as const;
export type Action = (typeof ACTIONS)[number];

export const PERMISSION_IDS = [
  'center',
  'security',
  'domain',
  'domainCert',
  'service',
  'person',
  'client',
  'userClient',
  'oauthList',
  'cert',
  'keys',
  'certList',
  'tools',
  'certRecord',
  'outbox',
  'audit',
  'role',
] as const;
export type PermissionId = (typeof PERMISSION_IDS)[number];

/** Permissions every signed-in account holds over its own account (user area). */
export const SELF_PERMISSIONS: readonly PermissionId[] = ['center', 'security'];

export interface ActionEntity {
  action: Action;
  describe: string;
  defaultCheck: boolean;
}

/** SPEC §3 "Current user": a role's permission. */
export interface Permission {
  roleId: string;
  permissionId: PermissionId;
  permissionName: string;
  actions: ActionEntity[];
  /** The same set; SPEC §3 says it is also called actionEntitySet. */
  actionEntitySet: ActionEntity[];
  actionList: Action[];
}

export interface Role {
  id: string;
  name: string;
  describe: string;
  permissions: Permission[];
}

export interface CurrentUser {
  id: string;
  name: string;
  avatar: string;
  realmId: string;
  roles: Role[];
  showDomain: boolean;
  showDeveloper: boolean;
  showServiceAccount: boolean;
  showOAuth: boolean;
}

/** True when any role grants `permissionId.action`. */
export function can(user: Pick<CurrentUser, 'roles'> | null | undefined, permissionId: string, action?: Action): boolean {
  if (!user) return false;
  return user.roles.some((r) => r.permissions.some((p) => p.permissionId === permissionId && (action === undefined || p.actionList.includes(action))));
}
