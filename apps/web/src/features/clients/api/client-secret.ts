/** POST …/clients/:clientId/secret: a new secret, answered this once; the old one stops working at once. */
import { clientPaths, type ClientScope, type ClientSecretAnswer } from '@umbo/contracts/clients';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function useRegenerateSecret(scope: ClientScope) {
  return useMutation({
    mutationFn: (clientId: string) => api.post<ClientSecretAnswer>(clientPaths.secret(scope, clientId)),
  });
}
