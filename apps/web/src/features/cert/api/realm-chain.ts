/** GET /api/cert/realms/:realmId/chain: the realm's chain, platform root → realm intermediate (domainCert.query). */
import { pkiPaths, type CaView } from '@umbo/contracts/pki';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export function getRealmChainQueryOptions(realmId: string) {
  return queryOptions({
    queryKey: [...pkiKey, 'realm', realmId, 'chain'] as const,
    queryFn: ({ signal }) => api.get<{ root: CaView; intermediate: CaView }>(pkiPaths.realmChain(realmId), { signal }),
    meta: { inlineError: true },
  });
}

export function useRealmChain(realmId: string, enabled = true) {
  return useQuery({ ...getRealmChainQueryOptions(realmId), enabled });
}
