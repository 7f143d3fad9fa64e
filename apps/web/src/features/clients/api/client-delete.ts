/** DELETE …/clients/:clientId (SPEC §4: after a confirmation). */
import { clientPaths, type ClientScope } from '@umbo/contracts/clients';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { clientsKey } from './client-list';

export function useDeleteClient(scope: ClientScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) => api.delete<unknown>(clientPaths.one(scope, clientId)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: clientsKey(scope) }),
  });
}
