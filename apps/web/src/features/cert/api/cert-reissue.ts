/** POST /api/cert/certs/:certId/reissue: the same key and subject, a new serial number and validity. */
import { pkiPaths, type CertView } from '@umbo/contracts/pki';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export function useReissueCert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (certId: string) => api.post<CertView>(pkiPaths.certReissue(certId), {}),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pkiKey }),
  });
}
