/**
 * The domain's writes: create, change, delete, settings, logo/icon upload, test mail. Each
 * successful one invalidates the domain queries (STYLE §12).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RealmSettingsPatch, RealmSettingsView } from '@umbo/contracts/realm-settings';
import { realmSettingsPath } from '@umbo/contracts/realm-settings';
import { realmPaths, type BrandingKind, type RealmCreate, type RealmDeleteBody, type RealmDetail, type RealmUpdate } from '@umbo/contracts/realms';
import { api } from '../../../lib/api-client';
import { realmsQueryKey } from './get-realms';

function useInvalidating<A, R>(fn: (arg: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: realmsQueryKey }) });
}

export const useCreateRealm = () => useInvalidating((body: RealmCreate) => api.post<RealmDetail>(realmPaths.list, body));

export const useUpdateRealm = () =>
  useInvalidating(async (a: { realmId: string; realm?: RealmUpdate; settings?: RealmSettingsPatch }) => {
    if (a.realm && Object.keys(a.realm).length > 0) await api.patch<RealmDetail>(realmPaths.realm(a.realmId), a.realm);
    if (a.settings && Object.keys(a.settings).length > 0) await api.patch<RealmSettingsView>(realmSettingsPath(a.realmId), a.settings);
  });

export const useDeleteRealm = () =>
  useInvalidating((a: { realmId: string; body?: RealmDeleteBody }) =>
    api.delete<{ realmId: string; accountCount: number }>(realmPaths.realm(a.realmId), a.body ?? {}),
  );

export const useUploadImage = () =>
  useInvalidating((a: { realmId: string; kind: BrandingKind; dataUrl: string }) =>
    api.put<{ url: string }>(realmPaths.branding(a.realmId, a.kind), { dataUrl: a.dataUrl }),
  );

export const useRemoveImage = () => useInvalidating((a: { realmId: string; kind: BrandingKind }) => api.delete<object>(realmPaths.branding(a.realmId, a.kind)));

export const useTestMail = () =>
  useMutation({
    mutationFn: (a: { realmId: string; to: string }) => api.post<{ via: 'realm' | 'global' | 'outbox' }>(realmPaths.testMail(a.realmId), { to: a.to }),
  });
