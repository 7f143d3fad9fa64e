/**
 * Service (sub) accounts (SPEC §3 "Service (sub) account", §4, §5 sub name; DESIGN.md §4),
 * as the administration API, the owner's own API and the console's forms check them.
 *
 * A service account belongs to a person account (its owner) of the same realm and signs in
 * as `owner/subname`. Its "resources" are grants (permissionId.action) over its owner's
 * objects: never wider than what its owner holds, and enforced by the server against the
 * owner's CURRENT permissions on every call, so a later reduction of the owner shrinks it.
 *
 * Two doors to the same rules:
 *   - administrators: /api/users/realms/:realmId/accounts/:ownerId/services…  (service.<action> in that realm)
 *   - the owner:      /api/users/account/services…                           (userService.<action> in its own realm)
 */
import { z } from 'zod';
import { ACTIONS, PERMISSION_IDS, SELF_PERMISSIONS, type Action, type PermissionId } from './permissions.js';
import { zRegion } from './realm-settings.js';
import { LIMITS, zDescription, zPassword, zSubName } from './rules.js';

/**
 * Permission ids a service account may be granted: not the self pages (every account has
 * its own) and not `userService` (a service account owns no service accounts).
 */
export const GRANTABLE_PERMISSION_IDS = PERMISSION_IDS.filter((id) => !SELF_PERMISSIONS.includes(id) && id !== 'userService') as [
  PermissionId,
  ...PermissionId[],
];

const unique = (v: readonly string[]) => new Set(v).size === v.length;
const zId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'validation.invalid');

/** SPEC §5 "Description 4-50 characters"; '' for none (a description is optional here). */
export const zServiceDescription = z.string().refine((v) => v === '' || zDescription.safeParse(v).success, 'validation.description');
/** The registration area: a country calling code, 1-3 digits (as the account centre shows it), or '' for none. */
export const zRegistArea = z.string().refine((v) => v === '' || zRegion.safeParse(v).success, 'validation.invalid');

/** POST …/services. Unknown fields (realmId, owner_id, kind, permissions…) are refused: A-40 mass assignment. */
export const serviceCreateBody = z.strictObject({
  subname: zSubName,
  password: zPassword,
  description: zServiceDescription.optional(),
  regist_area: zRegistArea.optional(),
  /** SPEC §3/§4: must set its own password at the next sign-in (default yes: an administrator chose this one) */
  first_login_need_reset_password: z.boolean().optional(),
});
export type ServiceCreateBody = z.infer<typeof serviceCreateBody>;

/** PATCH …/services/:serviceId: only these; the sub name and the owner are fixed. */
export const serviceUpdateBody = z.strictObject({
  description: zServiceDescription.optional(),
  regist_area: zRegistArea.optional(),
  first_login_need_reset_password: z.boolean().optional(),
});
export type ServiceUpdateBody = z.infer<typeof serviceUpdateBody>;

/** PUT …/services/:serviceId/password: the owner or an administrator sets it; all of its sessions end. */
export const servicePasswordBody = z.strictObject({
  password: zPassword,
  /** default yes */
  first_login_need_reset_password: z.boolean().optional(),
});
export type ServicePasswordBody = z.infer<typeof servicePasswordBody>;

export const serviceGrant = z.strictObject({
  permissionId: z.enum(GRANTABLE_PERMISSION_IDS),
  actions: z.array(z.enum(ACTIONS)).min(1).max(ACTIONS.length).refine(unique, 'duplicate action'),
});
export interface ServiceGrant {
  permissionId: PermissionId;
  actions: Action[];
}

/** PUT …/services/:serviceId/resources: the whole set (an empty list takes every grant away). */
export const serviceResourcesBody = z.strictObject({
  grants: z
    .array(serviceGrant)
    .max(GRANTABLE_PERMISSION_IDS.length)
    .refine((g) => unique(g.map((x) => x.permissionId)), 'duplicate permission id'),
});
export type ServiceResourcesBody = z.infer<typeof serviceResourcesBody>;

/** Keyset paging in sub-name order (next / previous), with a sub-name prefix search. */
export const serviceListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
  direction: z.enum(['next', 'prev']).default('next'),
  /** the start of the sub name (case does not matter) */
  q: z.string().max(LIMITS.subNameMax).optional(),
});
export type ServiceListQuery = z.infer<typeof serviceListQuery>;

export const serviceOwnerParams = z.object({ realmId: zId, ownerId: zId });
export const serviceAdminParams = serviceOwnerParams.extend({ serviceId: zId });
export const serviceOwnParams = z.object({ serviceId: zId });

/** SPEC §3's fields (account, status, sub_id, regist_area, first_login_need_reset_password) and a little more. */
export const serviceAccountView = z.object({
  /** what it signs in with: owner/subname */
  account: z.string(),
  status: z.enum(['enabled', 'disabled']),
  /** the service account's own id */
  sub_id: z.string(),
  subname: z.string(),
  ownerId: z.string(),
  ownerName: z.string(),
  realmId: z.string(),
  regist_area: z.string(),
  first_login_need_reset_password: z.boolean(),
  description: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  lastLoginTime: z.number().nullable(),
});
export type ServiceAccountView = z.infer<typeof serviceAccountView>;

export const serviceAccountPage = z.object({
  /** whose service accounts these are */
  owner: z.object({ id: z.string(), name: z.string(), realmId: z.string() }),
  items: z.array(serviceAccountView),
  /** all of this owner's service accounts matching the search (one owner's count is cheap) */
  total: z.number(),
  nextCursor: z.string().nullable(),
  prevCursor: z.string().nullable(),
});
export type ServiceAccountPage = z.infer<typeof serviceAccountPage>;

const grantView = z.object({ permissionId: z.string(), actions: z.array(z.string()) });
export const serviceResourcesView = z.object({
  /** what is stored for the service account */
  grants: z.array(grantView),
  /** what the caller may grant now: what the owner holds in the realm and the caller too */
  grantable: z.array(grantView),
  /** what the service account can do right now: grants within the owner's current permissions */
  effective: z.array(grantView),
});
export type ServiceResourcesView = z.infer<typeof serviceResourcesView>;

/** Where a service-account call goes: an owner named by an administrator, or the caller's own. */
export type ServiceScope = { realmId: string; ownerId: string } | 'own';

export const serviceAccountPaths = {
  /** the collection: list (GET) and add (POST) */
  list: (scope: ServiceScope) =>
    scope === 'own'
      ? '/api/users/account/services'
      : `/api/users/realms/${encodeURIComponent(scope.realmId)}/accounts/${encodeURIComponent(scope.ownerId)}/services`,
  one: (scope: ServiceScope, serviceId: string) => `${serviceAccountPaths.list(scope)}/${encodeURIComponent(serviceId)}`,
  enable: (scope: ServiceScope, serviceId: string) => `${serviceAccountPaths.one(scope, serviceId)}/enable`,
  disable: (scope: ServiceScope, serviceId: string) => `${serviceAccountPaths.one(scope, serviceId)}/disable`,
  password: (scope: ServiceScope, serviceId: string) => `${serviceAccountPaths.one(scope, serviceId)}/password`,
  resources: (scope: ServiceScope, serviceId: string) => `${serviceAccountPaths.one(scope, serviceId)}/resources`,
} as const;
