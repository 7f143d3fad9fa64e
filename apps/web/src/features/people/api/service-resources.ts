/** GET / PUT …/:id/resources: the grants, what may be granted, what is in effect. */
import { serviceAccountPaths, type ServiceGrant, type ServiceResourcesView, type ServiceScope } from '@umbo/contracts/service-accounts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const resourcesKey = (scope: ServiceScope, id: string) => ['service-resources', scope, id] as const;

export function getServiceResourcesQueryOptions(scope: ServiceScope, id: string) {
  return queryOptions({
    queryKey: resourcesKey(scope, id),
    queryFn: ({ signal }) => api.get<ServiceResourcesView>(serviceAccountPaths.resources(scope, id), { signal }),
    // grants change with the owner's roles: always read them fresh
    staleTime: 0,
  });
}

export function useServiceResources(scope: ServiceScope, id: string) {
  return useQuery(getServiceResourcesQueryOptions(scope, id));
}

export function useSetServiceResources(scope: ServiceScope, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (grants: ServiceGrant[]) => api.put<ServiceResourcesView>(serviceAccountPaths.resources(scope, id), { grants }),
    onSuccess: (data) => queryClient.setQueryData(resourcesKey(scope, id), data),
  });
}
