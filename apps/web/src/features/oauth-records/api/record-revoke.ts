/** DELETE a grant: the record goes and every token issued under it stops working (issue 12). */
import { clientPaths, type OAuthRecordItem } from '@umbo/contracts/clients';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { recordsKey, type RecordScope } from './record-list';

export function useRevokeRecord(scope: RecordScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (r: Pick<OAuthRecordItem, 'accountId' | 'clientId'>) =>
      api.delete<unknown>(scope === 'own' ? clientPaths.ownRecord(r.clientId) : clientPaths.realmRecord(scope.realmId, r.accountId, r.clientId)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: recordsKey(scope) }),
  });
}
