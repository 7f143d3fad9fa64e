/**
 * POST …/account-cas/:caId/renew (same key and subject, new serial and validity: issued
 * certificates keep verifying) and …/revoke (RFC 5280 reason), both domainCert.update; and
 * …/intermediate/renew, the realm intermediate renewed the same way (answers the new chain);
 * …/replace, a revoked account CA replaced by one with a NEW key; and the platform root renewed
 * with its key (administrators of master only).
 */
import { pkiPaths, type CaView, type RevokeReason } from '@umbo/contracts/pki';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export function useRenewAccountCa(realmId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (caId: string) => api.post<CaView>(pkiPaths.realmAccountCaRenew(realmId, caId), {}),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pkiKey }),
  });
}

export function useRenewRealmIntermediate(realmId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ root: CaView; intermediate: CaView }>(pkiPaths.realmIntermediateRenew(realmId), {}),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pkiKey }),
  });
}

export function useRevokeAccountCa(realmId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ caId, reason }: { caId: string; reason: RevokeReason }) => api.post<CaView>(pkiPaths.realmAccountCaRevoke(realmId, caId), { reason }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pkiKey }),
  });
}

export function useReplaceAccountCa(realmId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (caId: string) => api.post<CaView>(pkiPaths.realmAccountCaReplace(realmId, caId), {}),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pkiKey }),
  });
}

export function useRenewPlatformRoot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<CaView>(pkiPaths.platformRootRenew, {}),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pkiKey }),
  });
}
