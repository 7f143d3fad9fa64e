/**
 * The audit trail as the administration API answers it (issue 11): a realm's events, newest
 * first, with keyset cursors; the CSV export of the same filter; an account's timeline (what
 * it did and what was done to it). Written once, read by the server routes and the console.
 */
import { z } from 'zod';

/** Stands for "every realm" where the caller may see them all (administrators of master). */
export const ALL_REALMS = '*';

const realm = (realmId: string) => `/api/users/realms/${encodeURIComponent(realmId)}`;
export const auditPaths = {
  list: (realmId: string) => `${realm(realmId)}/audit`,
  exportCsv: (realmId: string) => `${realm(realmId)}/audit/export.csv`,
  timeline: (realmId: string, accountId: string) => `${realm(realmId)}/accounts/${encodeURIComponent(accountId)}/timeline`,
} as const;

/** Actions the server records, grouped by their first word (filters offer these; the API takes any). */
export const AUDIT_ACTIONS = [
  'signin.password',
  'signin.sms',
  'signin.email',
  'signin.ftoken',
  'signin.otp',
  'signin.lock',
  'code.sent',
  'password.changed',
  'password.reset',
  'registration',
  'activation',
  'audit.export',
  'realm.',
  'account.',
  'service.',
  'role.',
] as const;

export const AUDIT_RESULTS = ['ok', 'fail'] as const;
export type AuditResult = (typeof AUDIT_RESULTS)[number];

export const AUDIT_LIMITS = { pageMax: 100, pageDefault: 20, filterMax: 255 } as const;

/** Epoch milliseconds in a query string. */
const epochMs = z.coerce.number().int().min(0).max(8_640_000_000_000_000);

/** The filters of the audit page and of its CSV export. */
export const auditFilter = z.object({
  /** the actor's account id or user name, exactly */
  actor: z.string().trim().max(AUDIT_LIMITS.filterMax).optional(),
  /** the target's id or name, exactly */
  target: z.string().trim().max(AUDIT_LIMITS.filterMax).optional(),
  /** an action ('signin.password') or a prefix ending in '.' ('signin.') */
  action: z
    .string()
    .trim()
    .max(64)
    .regex(/^[a-z][a-z0-9_.-]*$/, 'lower-case letters, digits, _ . -')
    .optional(),
  result: z.enum(AUDIT_RESULTS).optional(),
  /** epoch ms, inclusive */
  from: epochMs.optional(),
  /** epoch ms, exclusive */
  to: epochMs.optional(),
});

export const auditQuery = auditFilter.extend({
  cursor: z.string().max(200).optional(),
  /** 'next': older than the cursor (default); 'prev': newer than it */
  direction: z.enum(['next', 'prev']).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_LIMITS.pageMax).default(AUDIT_LIMITS.pageDefault),
});

export const timelineQuery = z.object({
  cursor: z.string().max(200).optional(),
  direction: z.enum(['next', 'prev']).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_LIMITS.pageMax).default(AUDIT_LIMITS.pageDefault),
});

export const auditEvent = z.object({
  id: z.string(),
  at: z.number(),
  realmId: z.string(),
  actor: z.object({ id: z.string(), name: z.string() }).nullable(),
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string().nullable(), name: z.string() }).nullable(),
  ip: z.string(),
  userAgent: z.string(),
  result: z.enum(AUDIT_RESULTS),
  /** names of the changed fields, never their values */
  changes: z.array(z.string()),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});

export const auditPage = z.object({
  items: z.array(auditEvent),
  /** older events (null: none) */
  nextCursor: z.string().nullable(),
  /** newer events (null: this is the newest page) */
  prevCursor: z.string().nullable(),
});

export type AuditFilter = z.infer<typeof auditFilter>;
export type AuditQueryInput = z.input<typeof auditQuery>;
export type AuditEventView = z.infer<typeof auditEvent>;
export type AuditPage = z.infer<typeof auditPage>;
