/** POST …/services (add) and PATCH …/services/:id (edit description, registration area, forced change). */
import {
  serviceAccountPaths,
  type ServiceAccountView,
  type ServiceCreateBody,
  type ServiceScope,
  type ServiceUpdateBody,
} from '@umbo/contracts/service-accounts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { serviceListKey } from './service-list';

export function useAddService(scope: ServiceScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ServiceCreateBody) => api.post<ServiceAccountView>(serviceAccountPaths.list(scope), body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: serviceListKey(scope) }),
  });
}

export function useUpdateService(scope: ServiceScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ServiceUpdateBody }) => api.patch<ServiceAccountView>(serviceAccountPaths.one(scope, id), body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: serviceListKey(scope) }),
  });
}
