/** POST /api/cert/keys: generate a key; its private key (keyPem) comes back this once when asked for. */
import { pkiPaths, type KeyCreateBody, type KeyView } from '@umbo/contracts/pki';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export type KeyCreated = KeyView & { keyPem?: string };

export function useCreateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: KeyCreateBody) => api.post<KeyCreated>(pkiPaths.keys, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pkiKey }),
    // the form shows a refusal naming one of its fields under that field
    meta: { inlineError: true },
  });
}
