/** POST /api/users/account/password {oldPassword, newPassword}; 1021 password_rejected carries errData.reason. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { accountPaths } from '@umbo/contracts/paths';
import { accountQueryKey } from './get-account';
import { sessionsQueryKey } from './get-sessions';

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { oldPassword: string; newPassword: string }) => api.post<unknown>(accountPaths.password, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountQueryKey });
      void queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
    },
  });
}
