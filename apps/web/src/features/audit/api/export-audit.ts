/**
 * GET …/audit/export.csv: the filtered trail as a CSV file, read as it arrives so the page can
 * say how many rows have come (the server streams it in batches), saved once complete.
 */
import { auditPaths } from '@umbo/contracts/audit';
import { api } from '../../../lib/api-client';
import { auditFilterParams, type AuditFilter } from './get-audit';

function fileNameOf(res: Response, realmId: string): string {
  const m = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return m?.[1] ?? `audit-${realmId}.csv`;
}

export async function exportAudit(realmId: string, filter: AuditFilter, onRows: (rows: number) => void, signal?: AbortSignal): Promise<number> {
  const res = await api.get<Response>(`${auditPaths.exportCsv(realmId)}?${auditFilterParams(filter).toString()}`, { stream: true, signal });
  const reader = res.body!.getReader();
  const parts: Uint8Array[] = [];
  let records = 0;
  let last = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    // Records end in CRLF; a chunk may split one, so the byte before a chunk is remembered.
    for (let i = 0; i < value.length; i++) if (value[i] === 10 && (i > 0 ? value[i - 1] : last) === 13) records++;
    last = value[value.length - 1] ?? last;
    onRows(Math.max(0, records - 1));
  }
  const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(res, realmId);
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return Math.max(0, records - 1);
}
