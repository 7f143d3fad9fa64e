/** DELETE /api/users/account/sessions: signs every device but this one out; answers {revoked: n}. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountPaths } from '@umbo/contracts/paths';
import { api } from '../../../lib/api-client';
import { sessionsQueryKey } from './get-sessions';

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<{ revoked: number }>(accountPaths.sessions),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
