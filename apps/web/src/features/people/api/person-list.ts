/** GET /api/users/realms/:realmId/accounts: one keyset page of a realm's person accounts. */
import { personPaths, type PersonList } from '@umbo/contracts/people';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The list's filter and order, as the address keeps them (the export takes the same). */
export interface PersonFilter {
  q?: string | undefined;
  field?: string | undefined;
  match?: string | undefined;
  status?: string | undefined;
  activated?: string | undefined;
  createdFrom?: number | undefined;
  createdTo?: number | undefined;
  sort?: 'created' | 'username' | undefined;
  order?: 'asc' | 'desc' | undefined;
}

export interface PersonPageParams extends PersonFilter {
  limit: number;
  cursor?: string | undefined;
}

export function personFilterQuery(f: PersonFilter): URLSearchParams {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(f)) if (value !== undefined && value !== '') q.set(key, String(value));
  return q;
}

/** Every page of a realm starts with this key: a change invalidates them all. */
export const personListKey = (realmId: string) => ['persons', realmId] as const;

export function getPersonListQueryOptions(realmId: string, p: PersonPageParams) {
  return queryOptions({
    queryKey: [...personListKey(realmId), p] as const,
    queryFn: ({ signal }) => api.get<PersonList>(`${personPaths.list(realmId)}?${personFilterQuery(p).toString()}`, { signal }),
    placeholderData: keepPreviousData,
    // the table says a failed load itself, with a retry
    meta: { inlineError: true },
  });
}

export function usePersonList(realmId: string, p: PersonPageParams) {
  return useQuery(getPersonListQueryOptions(realmId, p));
}
