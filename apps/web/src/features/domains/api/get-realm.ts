/** GET /api/users/realms/:realmId: one domain with its settings (secrets answered as '' + hasX). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { realmPaths, type RealmDetail } from '@umbo/contracts/realms';
import { api } from '../../../lib/api-client';
import { realmsQueryKey } from './get-realms';

export function getRealmQueryOptions(realmId: string) {
  return queryOptions({
    queryKey: [...realmsQueryKey, 'one', realmId] as const,
    queryFn: ({ signal }) => api.get<RealmDetail>(realmPaths.realm(realmId), { signal }),
    // A form must start from what is stored now, never a cached copy (STYLE §15).
    staleTime: 0,
  });
}

export function useRealm(realmId: string | undefined) {
  return useQuery({ ...getRealmQueryOptions(realmId ?? ''), enabled: Boolean(realmId) });
}
