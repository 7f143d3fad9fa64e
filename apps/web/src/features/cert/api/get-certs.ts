/** GET /api/cert/certs: one keyset page of the caller's certificates, filtered (SPEC §3 fields). */
import { pkiPaths, type CertView } from '@umbo/contracts/pki';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export interface CertListRequest {
  status?: string | undefined;
  expiringWithinDays?: string | undefined;
  keyId?: string | undefined;
  cn?: string | undefined;
  sn?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

export interface CertPage {
  items: CertView[];
  next: string | null;
}

export function getCertsQueryOptions(r: CertListRequest) {
  const q = new URLSearchParams({ limit: String(r.limit) });
  for (const name of ['status', 'expiringWithinDays', 'keyId', 'cn', 'sn', 'cursor'] as const) if (r[name]) q.set(name, r[name]!);
  return queryOptions({
    queryKey: [...pkiKey, 'certs', r] as const,
    queryFn: ({ signal }) => api.get<CertPage>(`${pkiPaths.certs}?${q.toString()}`, { signal }),
    placeholderData: keepPreviousData,
    meta: { inlineError: true },
  });
}

export function useCerts(r: CertListRequest, enabled = true) {
  return useQuery({ ...getCertsQueryOptions(r), enabled });
}
