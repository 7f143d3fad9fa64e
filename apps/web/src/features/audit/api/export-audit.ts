/** GET …/audit/export.csv: the filtered trail as a CSV file, with a running count of records. */
import { auditPaths } from '@umbo/contracts/audit';
import { downloadCsv } from '../../../lib/csv-download';
import { auditFilterParams, type AuditFilter } from './get-audit';

export function exportAudit(realmId: string, filter: AuditFilter, onRows: (rows: number) => void, signal?: AbortSignal): Promise<number> {
  return downloadCsv(`${auditPaths.exportCsv(realmId)}?${auditFilterParams(filter).toString()}`, `audit-${realmId}.csv`, onRows, signal);
}
