/** PUT …/:id/password: the owner or an administrator sets it, by default to be changed at the next sign-in. */
import { serviceAccountPaths, type ServiceAccountView, type ServicePasswordBody, type ServiceScope } from '@umbo/contracts/service-accounts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { serviceListKey } from './service-list';

export function useServicePassword(scope: ServiceScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ServicePasswordBody }) => api.put<ServiceAccountView>(serviceAccountPaths.password(scope, id), body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: serviceListKey(scope) }),
  });
}
