/** GET /api/users/realms/:realmId/audit: one keyset page of the realm's audit events. */
import { auditPaths, type AuditPage } from '@umbo/contracts/audit';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface AuditFilter {
  actor?: string | undefined;
  target?: string | undefined;
  action?: string | undefined;
  result?: 'ok' | 'fail' | undefined;
  /** epoch ms, inclusive */
  from?: number | undefined;
  /** epoch ms, exclusive */
  to?: number | undefined;
}

export interface AuditPageRequest extends AuditFilter {
  realmId: string;
  cursor?: string | undefined;
  direction?: 'next' | 'prev' | undefined;
  limit: number;
}

/** The filter as query parameters (the CSV export takes the same). */
export function auditFilterParams(f: AuditFilter): URLSearchParams {
  const q = new URLSearchParams();
  for (const key of ['actor', 'target', 'action', 'result'] as const) if (f[key]) q.set(key, f[key]!);
  if (f.from !== undefined) q.set('from', String(f.from));
  if (f.to !== undefined) q.set('to', String(f.to));
  return q;
}

export function getAuditQueryOptions(r: AuditPageRequest) {
  const q = auditFilterParams(r);
  q.set('limit', String(r.limit));
  if (r.cursor) q.set('cursor', r.cursor);
  if (r.direction === 'prev') q.set('direction', 'prev');
  return queryOptions({
    queryKey: ['audit', r] as const,
    queryFn: ({ signal }) => api.get<AuditPage>(`${auditPaths.list(r.realmId)}?${q.toString()}`, { signal }),
    placeholderData: keepPreviousData,
    meta: { inlineError: true },
  });
}

export function useAuditPage(r: AuditPageRequest) {
  return useQuery(getAuditQueryOptions(r));
}
