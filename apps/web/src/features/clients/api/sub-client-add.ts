/** POST …/clients/:clientId/sub-clients (SPEC §3 "Sub client"; a taken id is 1071 "Sub-client ID already exists"). */
import { clientPaths, type ClientCreated, type ClientScope, type SubClientCreateBody } from '@umbo/contracts/clients';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { clientsKey } from './client-list';

export function useAddSubClient(scope: ClientScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ parentId, body }: { parentId: string; body: SubClientCreateBody }) => api.post<ClientCreated>(clientPaths.subClients(scope, parentId), body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: clientsKey(scope) }),
    meta: { inlineError: true },
  });
}
