/** PUT /api/users/account/avatar {image: data URL, png/jpeg ≤ 4 KB}. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { currentUserQueryKey } from '../../../lib/session/get-current-user';
import { accountPaths } from '@umbo/contracts/paths';
import { accountQueryKey } from './get-account';

export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (image: string) => api.put<{ avatar: string }>(accountPaths.avatar, { image }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountQueryKey });
      void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
    },
  });
}
