/** GET /api/perm/user/info: the signed-in account with its roles and permissions (SPEC §3). */
import { paths } from '@umbo/contracts/paths';
import type { CurrentUser } from '@umbo/contracts/permissions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';

/** SPEC §4: an answer without role permissions cannot drive the console. */
export class RolesMissingError extends Error {
  constructor() {
    super('roles missing');
    this.name = 'RolesMissingError';
  }
}

export async function getCurrentUser(signal?: AbortSignal): Promise<CurrentUser> {
  const user = await api.get<CurrentUser>(paths.currentUser, { signal });
  // Roles that carry no permission at all are no roles either: the console would open empty.
  if (!user || !Array.isArray(user.roles) || !user.roles.some((r) => Array.isArray(r.permissions) && r.permissions.length > 0)) throw new RolesMissingError();
  return user;
}

export const currentUserQueryKey = ['current-user'] as const;

export function getCurrentUserQueryOptions() {
  return queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => getCurrentUser(signal),
    staleTime: 5 * 60_000,
    // The shell shows this failure itself (and signs out): see app/shell/use-session.ts.
    meta: { inlineError: true },
  });
}

export function useCurrentUser() {
  return useQuery(getCurrentUserQueryOptions());
}
