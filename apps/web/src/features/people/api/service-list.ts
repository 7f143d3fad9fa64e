/** GET …/services: one page of an owner's service accounts (keyset: cursor + direction), or the caller's own. */
import { serviceAccountPaths, type ServiceAccountPage, type ServiceScope } from '@umbo/contracts/service-accounts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface ServiceListParams {
  limit: number;
  cursor?: string | undefined;
  direction?: 'next' | 'prev' | undefined;
  q?: string | undefined;
}

/** Every list of a scope starts with this key: a change invalidates them all. */
export const serviceListKey = (scope: ServiceScope) => ['service-accounts', scope] as const;

export function getServiceListQueryOptions(scope: ServiceScope, p: ServiceListParams) {
  const q = new URLSearchParams({ limit: String(p.limit) });
  if (p.cursor) q.set('cursor', p.cursor);
  if (p.cursor && p.direction === 'prev') q.set('direction', 'prev');
  if (p.q) q.set('q', p.q);
  return queryOptions({
    queryKey: [...serviceListKey(scope), p] as const,
    queryFn: ({ signal }) => api.get<ServiceAccountPage>(`${serviceAccountPaths.list(scope)}?${q.toString()}`, { signal }),
    placeholderData: keepPreviousData,
    // the table says a failed load itself, with a retry
    meta: { inlineError: true },
  });
}

export function useServiceList(scope: ServiceScope, p: ServiceListParams, enabled = true) {
  return useQuery({ ...getServiceListQueryOptions(scope, p), enabled });
}
