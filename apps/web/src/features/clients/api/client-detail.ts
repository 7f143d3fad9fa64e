/** GET …/clients/:clientId: every field of one client (SPEC §3), for its details and its edit form. */
import { clientPaths, type ClientScope, type ClientView } from '@umbo/contracts/clients';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { clientsKey } from './client-list';

export function getClientQueryOptions(scope: ClientScope, clientId: string) {
  return queryOptions({
    queryKey: [...clientsKey(scope), 'one', clientId] as const,
    queryFn: ({ signal }) => api.get<ClientView>(clientPaths.one(scope, clientId), { signal }),
    // a form must not start from an old copy (STYLE §15)
    staleTime: 0,
    meta: { inlineError: true },
  });
}

export function useClient(scope: ClientScope, clientId: string | undefined) {
  return useQuery({ ...getClientQueryOptions(scope, clientId ?? ''), enabled: Boolean(clientId) });
}
