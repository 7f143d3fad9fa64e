/** GET /api/users/account: the account centre (SPEC §3). */
import type { AccountInfo } from '@umbo/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { accountPaths } from '@umbo/contracts/paths';

export const accountQueryKey = ['me'] as const;

export function getAccountQueryOptions() {
  return queryOptions({
    queryKey: accountQueryKey,
    queryFn: ({ signal }) => api.get<AccountInfo>(accountPaths.account, { signal }),
  });
}

export function useAccount() {
  return useQuery(getAccountQueryOptions());
}
