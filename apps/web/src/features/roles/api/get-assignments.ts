/** GET /api/perm/realms/:realmId/assignments: who holds which role in the realm. */
import { rolePaths, type AssignmentList } from '@umbo/contracts/roles';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface AssignmentFilter {
  roleId?: string | undefined;
  q?: string | undefined;
  limit: number;
  offset: number;
}

export const assignmentsQueryKey = (realmId: string) => ['role-assignments', realmId] as const;

export function getAssignmentsQueryOptions(realmId: string, filter: AssignmentFilter, enabled = true) {
  const params = new URLSearchParams({ limit: String(filter.limit), offset: String(filter.offset) });
  if (filter.roleId) params.set('roleId', filter.roleId);
  if (filter.q) params.set('q', filter.q);
  return queryOptions({
    queryKey: [...assignmentsQueryKey(realmId), filter] as const,
    queryFn: ({ signal }) => api.get<AssignmentList>(`${rolePaths.assignments(realmId)}?${params.toString()}`, { signal }),
    enabled: enabled && realmId !== '',
    placeholderData: keepPreviousData,
    meta: { inlineError: true },
  });
}

export function useAssignments(realmId: string, filter: AssignmentFilter, enabled = true) {
  return useQuery(getAssignmentsQueryOptions(realmId, filter, enabled));
}
