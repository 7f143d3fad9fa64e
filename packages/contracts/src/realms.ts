/**
 * Realms ("domains" in the console, SPEC §3 "Domain"): list, create, read, change, delete,
 * branding upload, test mail, export and import (issue 11). The realm's settings record is
 * realm-settings.ts; the groups of issue 11 are realm-groups.ts.
 */
import { z } from 'zod';
import { zDescription, zDomainName } from './rules.js';
import { realmSettingsPatch, realmSettingsView } from './realm-settings.js';

/**
 * The realm id: URL-safe (it is a path segment and the issuer's last segment, DESIGN.md §5),
 * lower case, 2–63 characters, starting with a letter or digit. Fixed after creation.
 */
export const REALM_ID = /^[a-z0-9][a-z0-9_-]{1,62}$/;
export const zRealmId = z.string().regex(REALM_ID, 'validation.realm_id');

export const realmPaths = {
  list: '/api/users/realms',
  realm: (id: string) => `/api/users/realms/${encodeURIComponent(id)}`,
  branding: (id: string, kind: BrandingKind) => `/api/users/realms/${encodeURIComponent(id)}/branding/${kind}`,
  testMail: (id: string) => `/api/users/realms/${encodeURIComponent(id)}/settings/test-mail`,
  export: (id: string) => `/api/users/realms/${encodeURIComponent(id)}/export`,
  import: '/api/users/realms/import',
} as const;

// ─── list ────────────────────────────────────────────────────────────────────────────────

export const realmListQuery = z.object({
  /** prefix of the realm id or of the domain name (case-insensitive) */
  q: z.string().trim().max(255).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type RealmListQuery = z.input<typeof realmListQuery>;

export const realmSummary = z.object({
  realmId: z.string(),
  domain: z.string(),
  description: z.string(),
  backend_type: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** person and service accounts of the realm */
  accountCount: z.number(),
});
export type RealmSummary = z.infer<typeof realmSummary>;
export const realmListResult = z.object({ items: z.array(realmSummary), total: z.number() });
export type RealmListResult = z.infer<typeof realmListResult>;

// ─── create, read, change, delete ────────────────────────────────────────────────────────

/** The realm's own fields; its settings are the settings PATCH (realm-settings.ts). */
export const realmCreate = z.strictObject({
  realmId: zRealmId,
  domain: zDomainName,
  description: zDescription,
  settings: realmSettingsPatch.optional(),
});
export type RealmCreate = z.input<typeof realmCreate>;

/** realmId is not here: it is fixed after creation (a body naming it is refused, 1009). */
export const realmUpdate = z.strictObject({
  domain: zDomainName.optional(),
  description: zDescription.optional(),
});
export type RealmUpdate = z.input<typeof realmUpdate>;

export const realmDetail = realmSummary.extend({ settings: realmSettingsView });
export type RealmDetail = z.infer<typeof realmDetail>;

export const realmParams = z.object({
  realmId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'realm id'),
});

/**
 * Deleting a realm that still has accounts needs the second confirmation: the caller states
 * that everything goes and how many accounts that is; a count that is not the real one
 * (the realm changed since the dialog opened) is refused like no confirmation.
 */
export const realmDelete = z
  .strictObject({
    confirmDeleteEverything: z.boolean().optional(),
    accountCount: z.number().int().min(0).optional(),
  })
  .nullish();
export type RealmDeleteBody = z.input<typeof realmDelete>;
export const realmDeleted = z.object({ realmId: z.string(), accountCount: z.number() });

// ─── branding (SPEC §5: logo jpeg/png ≤ 4 KB, icon ≤ 16 KB) ───────────────────────────────

export const BRANDING_KINDS = ['logo', 'icon'] as const;
export type BrandingKind = (typeof BRANDING_KINDS)[number];
export const brandingParams = realmParams.extend({ kind: z.enum(BRANDING_KINDS) });
/** The picture as a data URL (`data:image/png;base64,…`); the server checks the bytes. */
export const brandingUpload = z.strictObject({
  dataUrl: z
    .string()
    .min(1)
    .max(32 * 1024),
});
export const brandingResult = z.object({ url: z.string() });

// ─── test mail ───────────────────────────────────────────────────────────────────────────

export const testMailBody = z.strictObject({
  to: z
    .string()
    .max(254)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'validation.email'),
});
/** How the mail went out: the realm's SMTP, the global one, or the outbox (no server configured). */
export const testMailResult = z.object({ via: z.enum(['realm', 'global', 'outbox']) });

// ─── export / import ─────────────────────────────────────────────────────────────────────

export const REALM_EXPORT_FORMAT = 'umbo.realm/1';

/**
 * A secret in an export file: sealed with this installation's key and bound to the field it
 * belongs to and where it is sent (so it cannot be moved to another field or destination).
 * Another installation cannot open it: its import reports the field to enter again.
 */
export const exportedSecret = z.strictObject({ sealed: z.string().max(4096) });

export const exportedRole = z.strictObject({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(64),
  description: z.string().max(255),
  permissions: z.array(z.strictObject({ permissionId: z.string().max(64), actions: z.array(z.string().max(16)).max(20) })).max(100),
});

export const exportedAccount = z.strictObject({
  id: z.string().min(1).max(64),
  kind: z.enum(['person', 'service']),
  ownerId: z.string().max(64).nullable(),
  username: z.string().min(1).max(120),
  email: z.string().max(254).nullable(),
  phone: z.string().max(32).nullable(),
  passwordHash: z.string().max(1024).nullable(),
  disabled: z.boolean(),
  activated: z.boolean(),
  forcePassword: z.boolean(),
  registArea: z.string().max(32),
  createdAt: z.number(),
  /** service accounts: their description and grants ("resources", SPEC §2) */
  description: z.string().max(255).optional(),
  grants: z
    .array(z.strictObject({ permissionId: z.string().max(64), actions: z.array(z.string().max(16)).max(20) }))
    .max(100)
    .optional(),
});

export const realmExport = z.strictObject({
  format: z.literal(REALM_EXPORT_FORMAT),
  exportedAt: z.number(),
  /** checked on import by the create rules (a realm made before them may not meet them) */
  realm: z.strictObject({ realmId: z.string().max(64), domain: z.string().max(255), description: z.string().max(255) }),
  /** the settings record; each secret replaced by an exportedSecret */
  settings: z.record(z.string(), z.unknown()),
  roles: z.array(exportedRole).max(1000),
  /** present when exported with ?accounts=1 */
  accounts: z.array(exportedAccount).max(100_000).optional(),
});
export type RealmExport = z.infer<typeof realmExport>;

export const realmExportQuery = z.object({ accounts: z.enum(['0', '1']).optional() });

export const realmImportQuery = z.object({ dryRun: z.enum(['0', '1']).optional() });
export const realmImportBody = z.strictObject({
  /** import under another realm id (default: the file's) */
  targetRealmId: zRealmId.optional(),
  document: realmExport,
  /**
   * Secrets the dry run listed under secretsToEnterAgain (a file from another installation),
   * by path, e.g. {"email.password": "…"}.
   */
  secrets: z.record(z.string().max(64), z.string().max(1024)).optional(),
});
export type RealmImportBody = z.input<typeof realmImportBody>;

export const realmImportReport = z.object({
  dryRun: z.boolean(),
  realmId: z.string(),
  /** 'create': a new realm; 'replace': its settings and roles replace the existing realm's */
  realm: z.enum(['create', 'replace']),
  roles: z.object({ create: z.array(z.string()), replace: z.array(z.string()) }),
  accounts: z.object({ create: z.number(), replace: z.number() }),
  /** secrets the file carried that this installation cannot open: enter them again */
  secretsToEnterAgain: z.array(z.string()),
});
export type RealmImportReport = z.infer<typeof realmImportReport>;
