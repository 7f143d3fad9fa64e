/** POST /api/cert/certs: issue a certificate from a PEM CSR or a managed key (SPEC §2 "certificate issue"). */
import { pkiPaths, type CertIssueBody, type CertView } from '@umbo/contracts/pki';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export function useIssueCert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CertIssueBody) => api.post<CertView>(pkiPaths.certs, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pkiKey }),
    meta: { inlineError: true },
  });
}
