/** Issue 14: the account's links to upstream OpenID identities (GET …/:id/federated) and removing one (DELETE …/:id/federated/:linkId). */
import { personPaths, type PersonFederatedLink } from '@umbo/contracts/people';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { personKey } from './person-detail';

/** Under the person's key, so that whatever refreshes the person refreshes its links too. */
const federatedKey = (realmId: string, id: string) => [...personKey(realmId, id), 'federated'] as const;

export function usePersonFederatedLinks(realmId: string, id: string) {
  return useQuery({
    queryKey: federatedKey(realmId, id),
    queryFn: ({ signal }) => api.get<PersonFederatedLink[]>(personPaths.federated(realmId, id), { signal }),
    meta: { inlineError: true },
  });
}

export function useRemoveFederatedLink(realmId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) => api.delete<{ removed: true }>(personPaths.federated(realmId, id, linkId)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: federatedKey(realmId, id) }),
  });
}
