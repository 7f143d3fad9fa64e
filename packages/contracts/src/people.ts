/**
 * Person account administration (SPEC §3 "Person account", §4, issue 11): the schemas of
 * /api/users/realms/:realmId/accounts, shared by the server routes and the console forms.
 * Bodies are strict: a field the schema does not name (realmId, kind, owner_id, permissions,
 * isSuperAdmin…) is refused with 1009 naming it, never ignored (A-40 mass assignment).
 */
import { z } from 'zod';
import { zEmail, zPassword, zUsername } from './rules.js';

export const PERSON_LIMITS = {
  pageMax: 100,
  pageDefault: 20,
  /** ids in one bulk call */
  bulkMax: 500,
  /** a CSV import's body */
  importBytes: 10 * 1024 * 1024,
  importRowsMax: 200_000,
  /** rows a dry run or a refused import reports one by one; the count covers the rest */
  reportedErrorsMax: 1000,
  /** totals above this are answered as "10,000+" (totalCapped) */
  totalCap: 10_000,
  searchMax: 64,
} as const;

export const PERSON_SORTS = ['created', 'username'] as const;
export const PERSON_SEARCH_FIELDS = ['any', 'username', 'email', 'phone', 'id'] as const;
export const PERSON_MATCH = ['prefix', 'contains'] as const;
export const PERSON_IMPORT_COLUMNS = ['userName', 'email', 'phone', 'password'] as const;
export const PERSON_EXPORT_COLUMNS = ['id', 'userName', 'email', 'phone', 'disabled', 'activated', 'registArea', 'createdAt', 'lastLoginAt'] as const;

export const personPaths = {
  list: (realmId: string) => `/api/users/realms/${encodeURIComponent(realmId)}/accounts`,
  one: (realmId: string, id: string) => `/api/users/realms/${encodeURIComponent(realmId)}/accounts/${encodeURIComponent(id)}`,
  action: (realmId: string, id: string, action: 'enable' | 'disable' | 'password' | 'sessions' | 'otp') =>
    `/api/users/realms/${encodeURIComponent(realmId)}/accounts/${encodeURIComponent(id)}/${action}`,
  session: (realmId: string, id: string, sessionId: string) =>
    `/api/users/realms/${encodeURIComponent(realmId)}/accounts/${encodeURIComponent(id)}/sessions/${encodeURIComponent(sessionId)}`,
  federated: (realmId: string, id: string, linkId?: string) =>
    `/api/users/realms/${encodeURIComponent(realmId)}/accounts/${encodeURIComponent(id)}/federated${linkId ? `/${encodeURIComponent(linkId)}` : ''}`,
  bulk: (realmId: string, action: 'enable' | 'disable' | 'delete') => `/api/users/realms/${encodeURIComponent(realmId)}/accounts/bulk/${action}`,
  import: (realmId: string, dryRun: boolean) => `/api/users/realms/${encodeURIComponent(realmId)}/accounts/import${dryRun ? '?dryRun=1' : ''}`,
  export: (realmId: string) => `/api/users/realms/${encodeURIComponent(realmId)}/accounts/export.csv`,
} as const;

export const personRealmParams = z.object({ realmId: z.string().min(1).max(64) });
export const personParams = personRealmParams.extend({ id: z.string().min(1).max(64) });
export const personSessionParams = personParams.extend({ sessionId: z.string().min(1).max(64) });

const flag = z.enum(['yes', 'no']);
const epochMs = z.coerce.number().int().min(0).max(8.64e15);

/** What the list and the export filter on (no paging). */
export const personFilterQuery = z
  .object({
    /** user name, email, phone or id: a prefix (default) or, with match=contains, any part */
    q: z.string().trim().max(PERSON_LIMITS.searchMax).optional(),
    field: z.enum(PERSON_SEARCH_FIELDS).default('any'),
    match: z.enum(PERSON_MATCH).default('prefix'),
    status: z.enum(['enabled', 'disabled']).optional(),
    activated: flag.optional(),
    /** registration time, epoch ms: from inclusive, to exclusive */
    createdFrom: epochMs.optional(),
    createdTo: epochMs.optional(),
    sort: z.enum(PERSON_SORTS).default('created'),
    order: z.enum(['asc', 'desc']).default('desc'),
  })
  .strict();

/**
 * Keyset paging: `cursor` is the `nextCursor` or `prevCursor` of the page before (opaque; it
 * knows its direction, which `direction` may also state, as the audit and service account lists take it).
 */
export const personListQuery = personFilterQuery
  .extend({
    limit: z.coerce.number().int().min(1).max(PERSON_LIMITS.pageMax).default(PERSON_LIMITS.pageDefault),
    cursor: z.string().max(512).optional(),
    direction: z.enum(['next', 'prev']).optional(),
  })
  .strict();
export type PersonListQuery = z.input<typeof personListQuery>;

export const personItem = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  disabled: z.boolean(),
  activated: z.boolean(),
  forcePassword: z.boolean(),
  registArea: z.string(),
  createdAt: z.number(),
  lastLoginAt: z.number().nullable(),
});
export type PersonItem = z.infer<typeof personItem>;

export const personList = z.object({
  items: z.array(personItem),
  /**
   * exact (without a search or a registration-date filter: at any size), or PERSON_LIMITS.totalCap
   * with totalCapped when a search or a date filter matches more
   */
  total: z.number(),
  totalCapped: z.boolean(),
  nextCursor: z.string().nullable(),
  prevCursor: z.string().nullable(),
});
export type PersonList = z.infer<typeof personList>;

/** SPEC §3 "Person account" and "Account centre" facts; never a password hash. */
export const personDetail = personItem.extend({
  realmId: z.string(),
  lastLoginArea: z.string(),
  updatedAt: z.number(),
  otpEnabled: z.boolean(),
  hasPassword: z.boolean(),
  /** issue 14: the link to the account's Ali Living identity; absent outside `aliliving` realms, null before the first try */
  aliLiving: z
    .object({
      identityId: z.string().nullable(),
      linkedAt: z.number().nullable(),
      lastError: z.string().nullable(),
      lastTryAt: z.number(),
      attempts: z.number(),
    })
    .nullable()
    .optional(),
});
export type PersonDetail = z.infer<typeof personDetail>;

/** A mobile number as typed: national (+86 by default, or `country`) or E.164 with '+'. */
export const zPhoneInput = z
  .string()
  .trim()
  .max(32)
  .regex(/^\+?\d[\d -]{3,20}$/, 'validation.mobile');
/** A country calling code, 1–3 digits, e.g. 86, 1, 852. */
export const zCountryCode = z.string().regex(/^[1-9]\d{0,2}$/, 'validation.mobile');

export const createPersonBody = z
  .object({
    username: zUsername,
    email: zEmail.optional(),
    phone: zPhoneInput.optional(),
    country: zCountryCode.optional(),
    /** none: the account cannot sign in by password until one is set */
    password: zPassword.optional(),
    /** with a password: it must be changed at the first sign-in (default true) */
    forcePassword: z.boolean().optional(),
    disabled: z.boolean().optional(),
    activated: z.boolean().optional(),
  })
  .strict();
export type CreatePersonBody = z.infer<typeof createPersonBody>;

/** SPEC §3: email and phone; null unbinds. Unique in the realm (1205 naming the field). */
export const updatePersonBody = z
  .object({
    email: zEmail.nullable().optional(),
    phone: zPhoneInput.nullable().optional(),
    country: zCountryCode.optional(),
  })
  .strict();
export type UpdatePersonBody = z.infer<typeof updatePersonBody>;

/** A temporary password: the account must change it at its next sign-in. */
export const personPasswordBody = z.object({ password: zPassword }).strict();

export const personBulkBody = z.object({ ids: z.array(z.string().min(1).max(64)).min(1, 'validation.required').max(PERSON_LIMITS.bulkMax) }).strict();
export const personBulkResult = z.object({ done: z.number(), notFound: z.array(z.string()) });
export type PersonBulkResult = z.infer<typeof personBulkResult>;

export const personSessionItem = z.object({
  id: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.number(),
  lastSeenAt: z.number(),
  expiresAt: z.number(),
});
export type PersonSessionItem = z.infer<typeof personSessionItem>;
export const personSessionList = z.object({ items: z.array(personSessionItem), total: z.number() });
export const personRevokeResult = z.object({ revoked: z.number() });

export const personOtpState = z.object({ enabled: z.boolean(), pending: z.boolean(), recoveryCodesLeft: z.number() });
export type PersonOtpState = z.infer<typeof personOtpState>;

/** Issue 14: one link of the account to an upstream OpenID identity (GET …/:id/federated); the server's route answers this shape. */
export const personFederatedLink = z.object({ id: z.string(), issuer: z.string(), subject: z.string(), email: z.string().nullable(), linkedAt: z.number() });
export type PersonFederatedLink = z.infer<typeof personFederatedLink>;

export const personImportQuery = z.object({ dryRun: z.enum(['0', '1', 'true', 'false']).optional() }).strict();

/** Why a row of an import is refused. */
export const PERSON_IMPORT_ERRORS = ['required', 'invalid', 'duplicate_in_file', 'duplicate_in_db', 'password_rejected', 'cell_count'] as const;
export type PersonImportError = (typeof PERSON_IMPORT_ERRORS)[number];

export const personImportRowError = z.object({
  /** data row, 1 = the first row after the header */
  row: z.number(),
  /** physical line of the file where the row starts (the header is line 1) */
  line: z.number(),
  /** a column name of PERSON_IMPORT_COLUMNS, or 'row' */
  field: z.string(),
  error: z.enum(PERSON_IMPORT_ERRORS),
  /** the row that holds the value first, for duplicates within the file */
  firstRow: z.number().optional(),
});
export type PersonImportRowError = z.infer<typeof personImportRowError>;

export const personImportReport = z.object({
  dryRun: z.boolean(),
  rows: z.number(),
  valid: z.number(),
  /** accounts written (0 on a dry run or a refused import) */
  created: z.number(),
  errorCount: z.number(),
  errors: z.array(personImportRowError),
});
export type PersonImportReport = z.infer<typeof personImportReport>;
