/** POST /api/cert/tools/view-cert and …/view-csr: every field of a PEM certificate or CSR decoded, in groups. */
import { pkiPaths, type DecodedKey } from '@umbo/contracts/pki';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface DecodedView {
  kind: 'certificate' | 'csr';
  /** key: the phrase cert.decoded_<key> the console shows; title/label: the English fallback */
  groups: { key?: DecodedKey; title: string; fields: { key?: DecodedKey; label: string; value: string }[] }[];
}

export function useDecode(kind: 'certificate' | 'csr') {
  return useMutation({
    mutationFn: (pem: string) => api.post<DecodedView>(kind === 'csr' ? pkiPaths.viewCsr : pkiPaths.viewCert, { pem }),
  });
}
