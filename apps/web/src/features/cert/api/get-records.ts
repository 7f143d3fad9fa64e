/** GET /api/cert/records: one keyset page of the issue record (issuance, reissue, revocation, set cert, CA renewal). */
import { pkiPaths, type CERT_RECORD_KINDS, type RevokeReason } from '@umbo/contracts/pki';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export interface CertRecord {
  id: string;
  kind: (typeof CERT_RECORD_KINDS)[number];
  certId: string;
  sn: string;
  cn: string;
  actorId: string | null;
  actorName: string | null;
  reason: RevokeReason | null;
  at: number;
}

export interface RecordPage {
  items: CertRecord[];
  next: string | null;
}

export function getRecordsQueryOptions(r: { certId?: string | undefined; cursor?: string | undefined; limit: number }) {
  const q = new URLSearchParams({ limit: String(r.limit) });
  if (r.certId) q.set('certId', r.certId);
  if (r.cursor) q.set('cursor', r.cursor);
  return queryOptions({
    queryKey: [...pkiKey, 'records', r] as const,
    queryFn: ({ signal }) => api.get<RecordPage>(`${pkiPaths.records}?${q.toString()}`, { signal }),
    placeholderData: keepPreviousData,
    meta: { inlineError: true },
  });
}

export function useRecords(r: { certId?: string | undefined; cursor?: string | undefined; limit: number }) {
  return useQuery(getRecordsQueryOptions(r));
}
