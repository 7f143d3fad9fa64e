/** PATCH /api/cert/ca: edit CA — description 4–50, default and maximum issuance period in days (not under one month). */
import { pkiPaths, type CaView } from '@umbo/contracts/pki';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export interface CaEditInput {
  description?: string;
  defaultIssueValidPeriod?: number;
  maxIssueValidPeriod?: number;
}

export function useEditCa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CaEditInput) => api.patch<CaView>(pkiPaths.ca, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pkiKey }),
    meta: { inlineError: true },
  });
}
