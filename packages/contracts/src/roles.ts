/**
 * Roles, the permission catalogue and role assignments (issue 11, SPEC §6, DESIGN.md §4), as
 * the /api/perm routes and the console's role page both check them.
 *
 * A custom role belongs to one realm and holds `permissionId.action` grants of that realm's
 * permissions (PERMISSION_CATALOGUE scope `realm`); the server refuses any role, edit or
 * assignment wider than what the caller holds in that realm.
 */
import { z } from 'zod';
import { ACTIONS, PERMISSION_CATALOGUE, PERMISSION_IDS, type PermissionId } from './permissions.js';
import { zDescription } from './rules.js';

/** Letter first, then letters, digits, `_`, `.`, `-`; 3–50 (like SPEC §5's sub name, plus `-` of the built-in names). */
export const ROLE_NAME = /^[A-Za-z][A-Za-z0-9_.-]{2,49}$/;
/** Built-in role names; no custom role may take one (compared without case). */
export const BUILTIN_ROLE_IDS = ['admin', 'realm-admin', 'realm-viewer'] as const;
export type BuiltinRoleId = (typeof BUILTIN_ROLE_IDS)[number];
/** The implicit role of every account over its own pages (not assignable). */
export const SELF_ROLE_ID = 'user';

/** Permission ids a custom role may hold: those that mean something inside one realm. */
export const REALM_PERMISSION_IDS = PERMISSION_IDS.filter((id) => PERMISSION_CATALOGUE[id].scope === 'realm') as [PermissionId, ...PermissionId[]];

const unique = (v: readonly string[]) => new Set(v).size === v.length;
const zId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'validation.invalid');

export const zRoleName = z
  .string()
  .regex(ROLE_NAME, 'roles.name_rule')
  .refine((v) => !([...BUILTIN_ROLE_IDS, SELF_ROLE_ID] as string[]).includes(v.toLowerCase()), 'roles.name_reserved');

export const permissionGrant = z.strictObject({
  permissionId: z.enum(REALM_PERMISSION_IDS),
  actions: z.array(z.enum(ACTIONS)).min(1).max(ACTIONS.length).refine(unique, 'duplicate action'),
});
export type PermissionGrantInput = z.infer<typeof permissionGrant>;

const grants = z
  .array(permissionGrant)
  .min(1, 'roles.permissions_required')
  .max(REALM_PERMISSION_IDS.length)
  .refine((g) => unique(g.map((x) => x.permissionId)), 'duplicate permission id');

/** POST …/roles: every field required; unknown fields (realmId, builtin, id…) refused (A-40 mass assignment). */
export const roleCreateBody = z.strictObject({ name: zRoleName, description: zDescription, permissions: grants });
/** PATCH …/roles/:roleId: any of the same fields; `permissions` replaces the whole set. */
export const roleUpdateBody = roleCreateBody.partial();
export type RoleCreateBody = z.infer<typeof roleCreateBody>;
export type RoleUpdateBody = z.infer<typeof roleUpdateBody>;

/** POST …/assignments: give `roleId` to `accountId` (an account of that realm) in the realm. */
export const assignmentBody = z.strictObject({ accountId: zId, roleId: zId });
export type AssignmentBody = z.infer<typeof assignmentBody>;

export const permRealmParams = z.object({ realmId: zId });
export const roleParams = permRealmParams.extend({ roleId: zId });
export const assignmentParams = permRealmParams.extend({ accountId: zId, roleId: zId });

const paging = {
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
};
export const rolesQuery = z.object({ ...paging, limit: z.coerce.number().int().min(1).max(200).default(100) });
export const assignmentsQuery = z.object({
  roleId: zId.optional(),
  accountId: zId.optional(),
  /** part of the account's user name */
  q: z.string().trim().max(64).optional(),
  ...paging,
});
export const candidatesQuery = z.object({ q: z.string().trim().max(64).default(''), limit: z.coerce.number().int().min(1).max(20).default(10) });

// --- answers ---

export const grantView = z.object({ permissionId: z.string(), actions: z.array(z.string()) });
export type GrantView = z.infer<typeof grantView>;

export const roleView = z.object({
  id: z.string(),
  /** null: a built-in role (it exists in every realm) */
  realmId: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  builtin: z.boolean(),
  permissions: z.array(grantView),
  /** accounts holding this role in the realm */
  bindings: z.number(),
  /** the caller could give this role (and, for a custom role, edit or delete it): it is within their own set */
  grantable: z.boolean(),
});
export type RoleView = z.infer<typeof roleView>;

export const roleList = z.object({
  items: z.array(roleView),
  total: z.number(),
  /** what the caller holds in this realm among the grantable permissions: the most a role they make may hold */
  grantable: z.array(grantView),
});
export type RoleList = z.infer<typeof roleList>;

export const assignmentView = z.object({
  accountId: z.string(),
  username: z.string(),
  kind: z.enum(['person', 'service']),
  disabled: z.boolean(),
  roleId: z.string(),
  roleName: z.string(),
  realmId: z.string(),
  createdAt: z.number(),
});
export type AssignmentView = z.infer<typeof assignmentView>;
export const assignmentList = z.object({ items: z.array(assignmentView), total: z.number() });
export type AssignmentList = z.infer<typeof assignmentList>;

export const candidateView = z.object({ id: z.string(), username: z.string(), kind: z.enum(['person', 'service']) });
export type CandidateView = z.infer<typeof candidateView>;
export const candidateList = z.object({ items: z.array(candidateView) });

export const catalogueView = z.object({
  actions: z.array(z.string()),
  permissions: z.array(
    z.object({ permissionId: z.string(), describe: z.string(), scope: z.enum(['self', 'realm', 'platform']), actions: z.array(z.string()) }),
  ),
});
export type CatalogueView = z.infer<typeof catalogueView>;

const enc = encodeURIComponent;
/** The /api/perm paths of this file (STYLE §13). */
export const rolePaths = {
  permissions: '/api/perm/permissions',
  roles: (realmId: string) => `/api/perm/realms/${enc(realmId)}/roles`,
  role: (realmId: string, roleId: string) => `/api/perm/realms/${enc(realmId)}/roles/${enc(roleId)}`,
  assignments: (realmId: string) => `/api/perm/realms/${enc(realmId)}/assignments`,
  assignment: (realmId: string, accountId: string, roleId: string) => `/api/perm/realms/${enc(realmId)}/assignments/${enc(accountId)}/${enc(roleId)}`,
  candidates: (realmId: string) => `/api/perm/realms/${enc(realmId)}/candidates`,
} as const;
