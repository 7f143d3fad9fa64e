/** PATCH /api/users/account {username?, avatar?}. */
import type { AccountInfo } from '@umbo/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { currentUserQueryKey } from '../../../lib/session/get-current-user';
import { accountPaths } from '@umbo/contracts/paths';
import { accountQueryKey } from './get-account';

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { username?: string; avatar?: string }) => api.patch<AccountInfo>(accountPaths.account, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountQueryKey });
      void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
    },
  });
}
