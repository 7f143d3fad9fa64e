/** PATCH /api/users/account/settings: any part of the preferences. */
import type { AccountSettings } from '@umbo/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { accountPaths } from '@umbo/contracts/paths';
import { settingsQueryKey } from './get-settings';

export type SettingsPatch = Partial<Omit<AccountSettings, 'notifications'>> & { notifications?: Partial<AccountSettings['notifications']> };

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsPatch) => api.patch<AccountSettings>(accountPaths.settings, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: settingsQueryKey }),
  });
}
