/**
 * Issue 14: "Refresh from backend". GET …/accounts/bulk/refresh says which IT-interface backend
 * the realm's accounts live behind (null: none, so the console offers no refresh); POST
 * refreshes a selection and answers per id. A failing backend (1303) surfaces as any mutation error.
 */
import { personRefreshPaths, type PersonRefreshResult, type PersonRefreshState } from '@umbo/contracts/people-refresh';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { personKey } from './person-detail';
import { personListKey } from './person-list';

export function usePersonRefreshState(realmId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['person-refresh-state', realmId] as const,
    queryFn: ({ signal }) => api.get<PersonRefreshState>(personRefreshPaths.refresh(realmId), { signal }),
    enabled: enabled && Boolean(realmId),
    // a realm's backend type changes rarely; the server decides again on every refresh
    staleTime: 60_000,
    // no backend known: the action simply is not offered
    meta: { inlineError: true },
  });
}

export function useRefreshPersons(realmId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => api.post<PersonRefreshResult>(personRefreshPaths.refresh(realmId), { ids }),
    onSuccess: (_r, ids) => {
      void queryClient.invalidateQueries({ queryKey: personListKey(realmId) });
      for (const id of ids) void queryClient.invalidateQueries({ queryKey: personKey(realmId, id) });
    },
  });
}
