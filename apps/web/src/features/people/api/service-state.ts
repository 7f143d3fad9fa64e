/** POST …/:id/enable, …/:id/disable and DELETE …/:id (SPEC §4: each after a confirmation). */
import { serviceAccountPaths, type ServiceScope } from '@umbo/contracts/service-accounts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { serviceListKey } from './service-list';

export type ServiceStateAction = 'enable' | 'disable' | 'delete';

export function useServiceState(scope: ServiceScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: ServiceStateAction }) =>
      action === 'delete' ? api.delete<null>(serviceAccountPaths.one(scope, id)) : api.post<unknown>(serviceAccountPaths[action](scope, id)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: serviceListKey(scope) }),
  });
}
