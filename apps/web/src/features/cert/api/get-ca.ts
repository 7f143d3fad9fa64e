/** GET /api/cert/ca: the caller's own account CA ("account root certificate"), made on first need by the server. */
import { pkiPaths, type CaView } from '@umbo/contracts/pki';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export function getCaQueryOptions() {
  return queryOptions({
    queryKey: [...pkiKey, 'ca'] as const,
    queryFn: ({ signal }) => api.get<CaView>(pkiPaths.ca, { signal }),
    meta: { inlineError: true },
  });
}

export function useOwnCa(enabled = true) {
  return useQuery({ ...getCaQueryOptions(), enabled });
}
