/**
 * A streamed CSV download (issue 11 exports): read as it arrives so the page can say how many
 * records have come (the server streams them in batches), then saved under the name the
 * server proposes. Answers the number of records after the header.
 */
import { api } from './api-client';

/** The file name the server proposes (Content-Disposition), or `fallback`. */
function fileNameOf(res: Response, fallback: string): string {
  const m = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return m?.[1] ?? fallback;
}

export async function downloadCsv(path: string, fallbackName: string, onRows: (rows: number) => void, signal?: AbortSignal): Promise<number> {
  const res = await api.get<Response>(path, { stream: true, signal });
  const reader = res.body!.getReader();
  const parts: Uint8Array[] = [];
  let records = 0;
  let previous = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    // Each record ends in CRLF (a chunk may split it: the byte before a chunk is remembered);
    // a line break inside a quoted cell is a bare LF or CR.
    for (let i = 0; i < value.length; i++) if (value[i] === 10 && (i > 0 ? value[i - 1] : previous) === 13) records++;
    previous = value[value.length - 1] ?? previous;
    onRows(Math.max(0, records - 1));
  }
  const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(res, fallbackName);
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return Math.max(0, records - 1);
}
