/** POST …/accounts/import[?dryRun=1] with the CSV file as it is (text/csv): a dry run's report, or the import. */
import { PERSON_LIMITS, personPaths, type PersonImportReport } from '@umbo/contracts/people';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { personListKey } from './person-list';

/** An import's time grows with its rows (and their password hashes): not SPEC §9's 6 s. */
const IMPORT_TIMEOUT_MS = 10 * 60_000;

export function useImportPersons(realmId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // The dialog says a refused file or rows itself.
    meta: { inlineError: true },
    mutationFn: ({ file, dryRun }: { file: Blob; dryRun: boolean }) =>
      api.post<PersonImportReport>(personPaths.import(realmId, dryRun), undefined, {
        rawBody: { contentType: 'text/csv', data: file },
        timeoutMs: IMPORT_TIMEOUT_MS,
      }),
    onSuccess: (_report, { dryRun }) => {
      if (!dryRun) void queryClient.invalidateQueries({ queryKey: personListKey(realmId) });
    },
  });
}

export const IMPORT_MAX_BYTES = PERSON_LIMITS.importBytes;
