/** GET /api/cert/realms/:realmId/account-cas: one keyset page of the account root certificates of a realm's accounts. */
import { pkiPaths, type CaView } from '@umbo/contracts/pki';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export interface AccountCaRequest {
  realmId: string;
  q?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

export function getAccountCasQueryOptions(r: AccountCaRequest) {
  const q = new URLSearchParams({ limit: String(r.limit) });
  if (r.q) q.set('q', r.q);
  if (r.cursor) q.set('cursor', r.cursor);
  return queryOptions({
    queryKey: [...pkiKey, 'realm', r.realmId, 'account-cas', r] as const,
    queryFn: ({ signal }) => api.get<{ items: CaView[]; next: string | null }>(`${pkiPaths.realmAccountCas(r.realmId)}?${q.toString()}`, { signal }),
    placeholderData: keepPreviousData,
    meta: { inlineError: true },
  });
}

export function useAccountCas(r: AccountCaRequest, enabled = true) {
  return useQuery({ ...getAccountCasQueryOptions(r), enabled });
}
