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
  // issue 11: a person managing their OWN service accounts (showServiceAccount), as userClient is for own clients
  'userService',
  'oauthList',
  'cert',
  'keys',
  'certList',
  'tools',
  'certRecord',
  'outbox',
  'audit',
  'role',
  'dashboard',
] as const;
export type PermissionId = (typeof PERMISSION_IDS)[number];

/** Permissions every signed-in account holds over its own account (user area). */
export const SELF_PERMISSIONS: readonly PermissionId[] = ['center', 'security'];

/**
 * Where a permission means something: `self` pages every account has over its own account,
 * `realm` permissions that roles grant inside one realm, `platform` ones only the master
 * realm's `admin` holds (they read across realms).
 */
export type PermissionScope = 'self' | 'realm' | 'platform';

/** The catalogue (GET /api/perm/permissions): what each permission id covers, in English; the console shows its own phrases. */
export const PERMISSION_CATALOGUE: Readonly<Record<PermissionId, { describe: string; scope: PermissionScope }>> = {
  center: { describe: 'own basic information', scope: 'self' },
  security: { describe: 'own password, one-time password and sessions', scope: 'self' },
  domain: { describe: 'domains (realms) and their settings', scope: 'realm' },
  domainCert: { describe: 'account root certificates of a domain', scope: 'realm' },
  service: { describe: 'service (sub) accounts', scope: 'realm' },
  person: { describe: 'person accounts', scope: 'realm' },
  client: { describe: 'OAuth clients and sub clients', scope: 'realm' },
  userClient: { describe: 'clients a developer owns', scope: 'realm' },
  userService: { describe: 'service (sub) accounts a person owns', scope: 'realm' },
  oauthList: { describe: 'OAuth authorization records', scope: 'realm' },
  cert: { describe: 'certificate management', scope: 'realm' },
  keys: { describe: 'keys', scope: 'realm' },
  certList: { describe: 'certificates', scope: 'realm' },
  tools: { describe: 'certificate tools', scope: 'realm' },
  certRecord: { describe: 'certificate issue records', scope: 'realm' },
  outbox: { describe: 'mail and SMS kept by the outbox (all domains)', scope: 'platform' },
  audit: { describe: 'audit log', scope: 'realm' },
  role: { describe: 'roles and their assignment to accounts', scope: 'realm' },
  dashboard: { describe: 'dashboard: analysis, monitor, workplace', scope: 'realm' },
};

/** SPEC §6 actions that only read: a role made of these changes nothing (realm-viewer). */
export const READ_ACTIONS: readonly Action[] = ['query', 'get'];

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
  /** The realm the role is bound in: its permissions hold there (`admin` bound in master: everywhere). */
  realmId: string;
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

/**
 * `can` inside one realm, as the server's guard decides it: a role counts where it is bound,
 * `admin` bound in master everywhere. For a control whose call names a realm (or none: the
 * caller's own), so that a role bound elsewhere never shows a button the server refuses.
 */
export function canIn(user: Pick<CurrentUser, 'roles'> | null | undefined, realmId: string, permissionId: string, action: Action): boolean {
  if (!user) return false;
  return user.roles.some(
    (r) =>
      (r.realmId === realmId || (r.id === 'admin' && r.realmId === 'master')) &&
      r.permissions.some((p) => p.permissionId === permissionId && p.actionList.includes(action)),
  );
}
