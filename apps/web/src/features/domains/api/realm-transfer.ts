/** Domain export (a JSON file download) and import (dry run, then the real one). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { realmPaths, type RealmExport, type RealmImportBody, type RealmImportReport } from '@umbo/contracts/realms';
import { api } from '../../../lib/api-client';
import { realmsQueryKey } from './get-realms';

/** Fetches the export and hands it to the browser as a file. */
export async function downloadExport(realmId: string, withAccounts: boolean): Promise<void> {
  const doc = await api.get<RealmExport>(`${realmPaths.export(realmId)}${withAccounts ? '?accounts=1' : ''}`);
  const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `realm-${realmId}.json`;
  a.click();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function useImportRealm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (a: { body: RealmImportBody; dryRun: boolean }) => api.post<RealmImportReport>(`${realmPaths.import}${a.dryRun ? '?dryRun=1' : ''}`, a.body),
    onSuccess: (report) => {
      if (!report.dryRun) void client.invalidateQueries({ queryKey: realmsQueryKey });
    },
  });
}
