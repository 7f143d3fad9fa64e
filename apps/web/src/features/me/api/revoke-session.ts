/** DELETE /api/users/account/sessions/:id: signs one device out. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { accountPaths } from '@umbo/contracts/paths';
import { sessionsQueryKey } from './get-sessions';

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<unknown>(accountPaths.session(id)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
