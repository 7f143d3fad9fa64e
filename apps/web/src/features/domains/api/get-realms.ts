/** GET /api/users/realms: the domains the signed-in administrator may see, paged, searched by id or name prefix. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { realmPaths, type RealmListResult } from '@umbo/contracts/realms';
import { api } from '../../../lib/api-client';

export interface RealmFilter {
  q?: string | undefined;
  limit: number;
  offset: number;
}

export const realmsQueryKey = ['realms'] as const;

export function getRealmsQueryOptions(filter: RealmFilter) {
  const params = new URLSearchParams({ limit: String(filter.limit), offset: String(filter.offset) });
  if (filter.q) params.set('q', filter.q);
  return queryOptions({
    queryKey: [...realmsQueryKey, 'list', filter] as const,
    queryFn: ({ signal }) => api.get<RealmListResult>(`${realmPaths.list}?${params.toString()}`, { signal }),
    placeholderData: keepPreviousData,
    meta: { inlineError: true },
  });
}

export function useRealms(filter: RealmFilter) {
  return useQuery(getRealmsQueryOptions(filter));
}
