/**
 * GET …/accounts/export.csv: the current filter as a CSV file. Read as it arrives so the page
 * can say how many rows have come (the server streams it in batches); saved once complete.
 */
import { personPaths } from '@umbo/contracts/people';
import { api } from '../../../lib/api-client';
import { personFilterQuery, type PersonFilter } from './person-list';

/** The file name the server proposes (Content-Disposition), or a plain one. */
function fileNameOf(res: Response, realmId: string): string {
  const m = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return m?.[1] ?? `accounts-${realmId}.csv`;
}

export async function exportPersons(realmId: string, filter: PersonFilter, onRows: (rows: number) => void, signal?: AbortSignal): Promise<number> {
  const res = await api.get<Response>(`${personPaths.export(realmId)}?${personFilterQuery(filter).toString()}`, { stream: true, signal });
  const reader = res.body!.getReader();
  const parts: Uint8Array[] = [];
  let lines = 0;
  let previous = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    // Each record ends in CRLF (a chunk may split it); a line break inside a quoted cell is a bare LF or CR.
    for (let i = 0; i < value.length; i++) {
      if (value[i] === 10 && (i > 0 ? value[i - 1] : previous) === 13) lines++;
    }
    previous = value[value.length - 1] ?? previous;
    onRows(Math.max(0, lines - 1));
  }
  const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(res, realmId);
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return Math.max(0, lines - 1);
}
