/** POST …/accounts (create) and PATCH …/accounts/:id (email, phone). */
import { personPaths, type CreatePersonBody, type PersonDetail, type UpdatePersonBody } from '@umbo/contracts/people';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { personKey } from './person-detail';
import { personListKey } from './person-list';

export function useCreatePerson(realmId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePersonBody) => api.post<PersonDetail>(personPaths.list(realmId), body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: personListKey(realmId) }),
  });
}

export function useUpdatePerson(realmId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdatePersonBody) => api.patch<PersonDetail>(personPaths.one(realmId, id), body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: personListKey(realmId) });
      void queryClient.invalidateQueries({ queryKey: personKey(realmId, id) });
    },
  });
}
