/** GET /api/cert/certs/:certId: one certificate with its PEM, for the view drawer. */
import { pkiPaths, type CertView } from '@umbo/contracts/pki';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export function getCertQueryOptions(certId: string) {
  return queryOptions({
    queryKey: [...pkiKey, 'cert', certId] as const,
    queryFn: ({ signal }) => api.get<CertView>(pkiPaths.cert(certId), { signal }),
    meta: { inlineError: true },
  });
}

export function useCert(certId: string | undefined) {
  return useQuery({ ...getCertQueryOptions(certId ?? ''), enabled: Boolean(certId) });
}
