/** GET /api/users/oauth/records (the user's own) or …/realms/:realmId/oauth/records (oauthList.query): OAuth records, newest first. */
import { clientPaths, type OAuthRecordList } from '@umbo/contracts/clients';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Whose records: a realm an administrator names, or the signed-in user's own. */
export type RecordScope = { realmId: string } | 'own';

export const recordsKey = (scope: RecordScope) => ['oauth-records', scope] as const;

const listPath = (scope: RecordScope) => (scope === 'own' ? clientPaths.ownRecords : clientPaths.realmRecords(scope.realmId));

export function getRecordListQueryOptions(scope: RecordScope, p: { limit: number; offset: number }) {
  return queryOptions({
    queryKey: [...recordsKey(scope), p] as const,
    queryFn: ({ signal }) => api.get<OAuthRecordList>(`${listPath(scope)}?limit=${p.limit}&offset=${p.offset}`, { signal }),
    placeholderData: keepPreviousData,
    // the table says a failed load itself, with a retry
    meta: { inlineError: true },
  });
}

export function useRecordList(scope: RecordScope, p: { limit: number; offset: number }, enabled = true) {
  return useQuery({ ...getRecordListQueryOptions(scope, p), enabled });
}
