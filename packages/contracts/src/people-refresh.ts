/**
 * "Refresh from backend" (issue 14): the shadow accounts of a realm whose accounts live behind
 * an IT-interface backend (ecogloble, default) take the backend's current user name, e-mail
 * and phone. Shared by the server route and the console's bulk action and drawer button.
 */
import { z } from 'zod';
import { personBulkBody } from './people.js';

export const IT_BACKEND_TYPES = ['ecogloble', 'default'] as const;

const accounts = (realmId: string) => `/api/users/realms/${encodeURIComponent(realmId)}/accounts`;
export const personRefreshPaths = {
  /** GET: which IT backend a refresh would ask (null: none); POST: refresh the selection */
  refresh: (realmId: string) => `${accounts(realmId)}/bulk/refresh`,
} as const;

/** The selection, as for the other bulk actions: 1–500 ids, strict. */
export const personRefreshBody = personBulkBody;
export type PersonRefreshBody = z.infer<typeof personRefreshBody>;

/** The profile fields the backend's answer maps to. */
export const PERSON_REFRESH_FIELDS = ['username', 'email', 'phone'] as const;

/**
 * Per id: `updated` (changes names the fields), `unchanged`, `not_found` (the backend no longer
 * knows the user), `not_linked` (no account of this realm linked to the backend — local, another
 * realm's, or none), `conflict` (another account of the realm holds the backend's value of `field`;
 * nothing of this account changed).
 */
export const PERSON_REFRESH_RESULTS = ['updated', 'unchanged', 'not_found', 'not_linked', 'conflict'] as const;
export type PersonRefreshOutcome = (typeof PERSON_REFRESH_RESULTS)[number];

const field = z.enum(PERSON_REFRESH_FIELDS);
export const personRefreshItem = z.object({
  id: z.string(),
  result: z.enum(PERSON_REFRESH_RESULTS),
  changes: z.array(field).optional(),
  field: field.optional(),
});
export type PersonRefreshItem = z.infer<typeof personRefreshItem>;

export const personRefreshResult = z.object({
  backend: z.enum(IT_BACKEND_TYPES),
  /** one per distinct id, in the order asked */
  items: z.array(personRefreshItem),
});
export type PersonRefreshResult = z.infer<typeof personRefreshResult>;

export const personRefreshState = z.object({ backend: z.enum(IT_BACKEND_TYPES).nullable() });
export type PersonRefreshState = z.infer<typeof personRefreshState>;
