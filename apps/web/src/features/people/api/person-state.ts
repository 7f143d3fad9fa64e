/** Enable, disable and delete: one account (…/:id/enable|disable, DELETE …/:id) or a selection (…/bulk/:action). */
import { personPaths, type PersonBulkResult } from '@umbo/contracts/people';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { personKey } from './person-detail';
import { personListKey } from './person-list';

export type PersonAction = 'enable' | 'disable' | 'delete';

export function usePersonAction(realmId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: PersonAction }) =>
      action === 'delete' ? api.delete<unknown>(personPaths.one(realmId, id)) : api.post<unknown>(personPaths.action(realmId, id, action)),
    onSuccess: (_data, { id }) => {
      void queryClient.invalidateQueries({ queryKey: personListKey(realmId) });
      void queryClient.invalidateQueries({ queryKey: personKey(realmId, id) });
    },
  });
}

export function useBulkPersonAction(realmId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, action }: { ids: string[]; action: PersonAction }) => api.post<PersonBulkResult>(personPaths.bulk(realmId, action), { ids }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: personListKey(realmId) }),
  });
}
