/** POST /api/cert/tools/view-cert and …/view-csr: every field of a PEM certificate or CSR decoded, in groups. */
import { pkiPaths } from '@umbo/contracts/pki';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface DecodedView {
  kind: 'certificate' | 'csr';
  groups: { title: string; fields: { label: string; value: string }[] }[];
}

export function useDecode(kind: 'certificate' | 'csr') {
  return useMutation({
    mutationFn: (pem: string) => api.post<DecodedView>(kind === 'csr' ? pkiPaths.viewCsr : pkiPaths.viewCert, { pem }),
  });
}
