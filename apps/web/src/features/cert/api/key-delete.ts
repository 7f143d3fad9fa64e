/** DELETE /api/cert/keys/:keyId, after a confirmation; refused with 1107 KEY_IN_USE while a valid certificate uses the key. */
import { pkiPaths } from '@umbo/contracts/pki';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export function useDeleteKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => api.delete<unknown>(pkiPaths.key(keyId)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pkiKey }),
  });
}
