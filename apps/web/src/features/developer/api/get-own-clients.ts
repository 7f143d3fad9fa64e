/** GET /api/users/user/clients: the developer's own clients (and their sub clients), to pick one for the samples. */
import { clientPaths, type ClientListResult } from '@umbo/contracts/clients';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function getOwnClientsQueryOptions() {
  return queryOptions({
    queryKey: ['clients', 'own', 'developer'] as const,
    queryFn: ({ signal }) => api.get<ClientListResult>(`${clientPaths.list('own')}?limit=100&offset=0`, { signal }),
    meta: { inlineError: true },
  });
}

export function useOwnClients(enabled: boolean) {
  return useQuery({ ...getOwnClientsQueryOptions(), enabled });
}
