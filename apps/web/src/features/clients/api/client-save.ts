/** POST …/clients (create: the secret comes back this once) and PATCH …/clients/:clientId (edit, enable, disable). */
import { clientPaths, type ClientCreateBody, type ClientCreated, type ClientScope, type ClientUpdateBody, type ClientView } from '@umbo/contracts/clients';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { clientsKey } from './client-list';

export function useCreateClient(scope: ClientScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ClientCreateBody) => api.post<ClientCreated>(clientPaths.list(scope), body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: clientsKey(scope) }),
    // the form shows a refusal naming one of its fields under that field, the rest as a message
    meta: { inlineError: true },
  });
}

export function useUpdateClient(scope: ClientScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ clientId, body }: { clientId: string; body: ClientUpdateBody }) => api.patch<ClientView>(clientPaths.one(scope, clientId), body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: clientsKey(scope) }),
    meta: { inlineError: true },
  });
}
