/** POST …/roles (create) and PATCH …/roles/:roleId (change): a custom role of one realm. */
import { rolePaths, type GrantView, type RoleView } from '@umbo/contracts/roles';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { assignmentsQueryKey } from './get-assignments';
import { rolesQueryKey } from './get-roles';

/** The fields as the form holds them; the server checks them against roleCreateBody / roleUpdateBody. */
export interface RoleFields {
  name: string;
  description: string;
  permissions: GrantView[];
}

export interface SaveRole {
  realmId: string;
  /** absent: a new role */
  roleId?: string | undefined;
  body: RoleFields;
}

export function useSaveRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: SaveRole) =>
      v.roleId ? api.patch<RoleView>(rolePaths.role(v.realmId, v.roleId), v.body) : api.post<RoleView>(rolePaths.roles(v.realmId), v.body),
    onSuccess: (_role, v) => {
      void queryClient.invalidateQueries({ queryKey: rolesQueryKey(v.realmId) });
      // a renamed role reads differently in the assignments
      void queryClient.invalidateQueries({ queryKey: assignmentsQueryKey(v.realmId) });
    },
  });
}
