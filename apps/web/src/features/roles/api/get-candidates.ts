/** GET /api/perm/realms/:realmId/candidates?q=: person accounts of the realm a role can be given to. */
import { rolePaths, type CandidateView } from '@umbo/contracts/roles';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function useCandidates(realmId: string, q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['role-candidates', realmId, q] as const,
    queryFn: ({ signal }) => api.get<{ items: CandidateView[] }>(`${rolePaths.candidates(realmId)}?q=${encodeURIComponent(q)}&limit=20`, { signal }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
