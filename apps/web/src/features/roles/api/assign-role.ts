/** POST …/assignments (give a role) and DELETE …/assignments/:accountId/:roleId (take it back). */
import { rolePaths } from '@umbo/contracts/roles';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { currentUserQueryKey } from '../../../lib/session/get-current-user';
import { assignmentsQueryKey } from './get-assignments';
import { rolesQueryKey } from './get-roles';

function useInvalidate() {
  const queryClient = useQueryClient();
  return (realmId: string) => {
    void queryClient.invalidateQueries({ queryKey: assignmentsQueryKey(realmId) });
    // holder counts
    void queryClient.invalidateQueries({ queryKey: rolesQueryKey(realmId) });
    // the signed-in user may have changed their own roles
    void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
  };
}

export function useAssignRole() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (v: { realmId: string; accountId: string; roleId: string }) =>
      api.post<{ created: boolean }>(rolePaths.assignments(v.realmId), { accountId: v.accountId, roleId: v.roleId }),
    onSuccess: (_r, v) => invalidate(v.realmId),
  });
}

export function useUnassignRole() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (v: { realmId: string; accountId: string; roleId: string }) => api.delete<null>(rolePaths.assignment(v.realmId, v.accountId, v.roleId)),
    onSuccess: (_r, v) => invalidate(v.realmId),
  });
}
