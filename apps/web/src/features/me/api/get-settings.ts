/** GET /api/users/account/settings: language, theme, colour, notification choices. */
import type { AccountSettings } from '@umbo/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { accountPaths } from '@umbo/contracts/paths';

export const settingsQueryKey = ['me', 'settings'] as const;

export function getSettingsQueryOptions() {
  return queryOptions({
    queryKey: settingsQueryKey,
    queryFn: ({ signal }) => api.get<AccountSettings>(accountPaths.settings, { signal }),
  });
}

export function useAccountSettings() {
  return useQuery(getSettingsQueryOptions());
}
