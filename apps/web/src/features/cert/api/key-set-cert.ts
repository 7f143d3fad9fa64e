/** POST /api/cert/keys/:keyId/cert: set cert / complete — attach an externally issued certificate to a managed key. */
import { pkiPaths, type CertView } from '@umbo/contracts/pki';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export interface SetCertInput {
  keyId: string;
  body: { certPem: string; chainPem: string; allowUnknownCa: boolean; desc: string };
}

export function useSetCert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ keyId, body }: SetCertInput) => api.post<CertView>(pkiPaths.keyCert(keyId), body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pkiKey }),
    meta: { inlineError: true },
  });
}
