/** GET /api/perm/realms/:realmId/roles: the roles a realm uses, and what the caller may grant there. */
import { rolePaths, type RoleList } from '@umbo/contracts/roles';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const rolesQueryKey = (realmId: string) => ['roles', realmId] as const;

export function getRolesQueryOptions(realmId: string, page: { limit: number; offset: number }) {
  const params = new URLSearchParams({ limit: String(page.limit), offset: String(page.offset) });
  return queryOptions({
    queryKey: [...rolesQueryKey(realmId), page] as const,
    queryFn: ({ signal }) => api.get<RoleList>(`${rolePaths.roles(realmId)}?${params.toString()}`, { signal }),
    enabled: realmId !== '',
    placeholderData: keepPreviousData,
    // The table says a failure itself.
    meta: { inlineError: true },
  });
}

export function useRoles(realmId: string, page: { limit: number; offset: number }) {
  return useQuery(getRolesQueryOptions(realmId, page));
}
