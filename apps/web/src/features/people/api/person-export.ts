/** GET …/accounts/export.csv: the current filter as a CSV file, with a running count of records. */
import { personPaths } from '@umbo/contracts/people';
import { downloadCsv } from '../../../lib/csv-download';
import { personFilterQuery, type PersonFilter } from './person-list';

export function exportPersons(realmId: string, filter: PersonFilter, onRows: (rows: number) => void, signal?: AbortSignal): Promise<number> {
  return downloadCsv(`${personPaths.export(realmId)}?${personFilterQuery(filter).toString()}`, `accounts-${realmId}.csv`, onRows, signal);
}
