/** GET /api/users/account/sessions: the account's signed-in devices. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { accountPaths } from '@umbo/contracts/paths';

export interface SessionItem {
  id: string;
  ip: string;
  userAgent: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  current: boolean;
}
export const sessionsQueryKey = ['me', 'sessions'] as const;

export function getSessionsQueryOptions() {
  return queryOptions({
    queryKey: sessionsQueryKey,
    queryFn: ({ signal }) => api.get<{ items: SessionItem[]; total: number }>(accountPaths.sessions, { signal }),
  });
}

export function useSessions() {
  return useQuery(getSessionsQueryOptions());
}
