/** DELETE …/roles/:roleId: a custom role and its assignments. */
import { rolePaths } from '@umbo/contracts/roles';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { assignmentsQueryKey } from './get-assignments';
import { rolesQueryKey } from './get-roles';

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { realmId: string; roleId: string }) => api.delete<null>(rolePaths.role(v.realmId, v.roleId)),
    onSuccess: (_r, v) => {
      void queryClient.invalidateQueries({ queryKey: rolesQueryKey(v.realmId) });
      void queryClient.invalidateQueries({ queryKey: assignmentsQueryKey(v.realmId) });
    },
  });
}
