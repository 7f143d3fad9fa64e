/** POST /api/cert/tools/convert: PEM ↔ DER, certificate + key → PKCS#12, chain → PKCS#7, and back. */
import { pkiPaths, type ConvertFormat } from '@umbo/contracts/pki';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface ConvertInput {
  from: ConvertFormat;
  to: ConvertFormat;
  /** PEM text, or base64 of a binary input */
  input: string;
  keyPem?: string;
  password?: string;
}

export interface ConvertAnswer {
  fileName: string;
  mediaType: string;
  text?: string;
  base64?: string;
}

export function useConvert() {
  return useMutation({
    // a PKCS#12 with a strong key derivation takes a while on a busy server
    mutationFn: (body: ConvertInput) => api.post<ConvertAnswer>(pkiPaths.convert, body, { timeoutMs: 30_000 }),
  });
}
