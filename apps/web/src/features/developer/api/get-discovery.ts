/**
 * GET {issuer}/.well-known/openid-configuration of the user's realm (public, same origin): the
 * endpoints as the server states them, built from its configured public URL (AS-18), which
 * may differ from the address the console was opened at.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS } from '@umbo/contracts/checks';
import type { Endpoints } from '../components/snippets';

export function getDiscoveryQueryOptions(realmId: string) {
  return queryOptions({
    queryKey: ['oidc-discovery', realmId] as const,
    queryFn: async ({ signal }) => {
      const res = await fetch(`/realms/${encodeURIComponent(realmId)}/.well-known/openid-configuration`, {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.any([signal, AbortSignal.timeout(LIMITS.httpTimeoutMs)]),
      });
      if (!res.ok) throw new Error(`discovery answered ${res.status}`);
      return (await res.json()) as Endpoints;
    },
    staleTime: 5 * 60_000,
    retry: false,
    // the page falls back to the endpoints' fixed paths under this origin
    meta: { inlineError: true },
  });
}

export function useDiscovery(realmId: string) {
  return useQuery(getDiscoveryQueryOptions(realmId));
}
