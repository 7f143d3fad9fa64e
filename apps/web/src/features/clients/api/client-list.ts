/** GET …/clients: one page of a realm's clients (or the developer's own), each with its sub clients. */
import { clientPaths, type ClientListResult, type ClientScope } from '@umbo/contracts/clients';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface ClientListParams {
  q?: string | undefined;
  limit: number;
  offset: number;
}

/** Every query of a scope (lists and details) starts with this key: a change invalidates them all. */
export const clientsKey = (scope: ClientScope) => ['clients', scope] as const;

export function getClientListQueryOptions(scope: ClientScope, p: ClientListParams) {
  const q = new URLSearchParams({ limit: String(p.limit), offset: String(p.offset) });
  if (p.q) q.set('q', p.q);
  return queryOptions({
    queryKey: [...clientsKey(scope), 'list', p] as const,
    queryFn: ({ signal }) => api.get<ClientListResult>(`${clientPaths.list(scope)}?${q.toString()}`, { signal }),
    placeholderData: keepPreviousData,
    // the table says a failed load itself, with a retry
    meta: { inlineError: true },
  });
}

export function useClientList(scope: ClientScope, p: ClientListParams, enabled = true) {
  return useQuery({ ...getClientListQueryOptions(scope, p), enabled });
}
