/** GET /api/cert/keys: the caller's managed keys (SPEC §3 "Key"), public part only. */
import { pkiPaths, type KeyView } from '@umbo/contracts/pki';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pkiKey } from './pki-key';

export function getKeysQueryOptions() {
  return queryOptions({
    queryKey: [...pkiKey, 'keys'] as const,
    queryFn: ({ signal }) => api.get<{ items: KeyView[] }>(pkiPaths.keys, { signal }),
    // the table says a failed load itself, with a retry
    meta: { inlineError: true },
  });
}

export function useKeys(enabled = true) {
  return useQuery({ ...getKeysQueryOptions(), enabled });
}
