/** GET /api/cert/realms/:realmId/expiring (domainCert.query): the realm's expiry counts for the dashboard card. */
import { pkiPaths, type expiryInventory } from '@umbo/contracts/pki';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type ExpiryInventory = z.infer<typeof expiryInventory>;

export function useCertExpiry(realmId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard-cert-expiry', realmId] as const,
    // The counts come with every answer; 7 keeps the listed items few.
    queryFn: ({ signal }) => api.get<ExpiryInventory>(`${pkiPaths.realmExpiring(realmId)}?withinDays=7`, { signal }),
    enabled: enabled && realmId !== '',
    retry: false,
    meta: { inlineError: true },
  });
}
