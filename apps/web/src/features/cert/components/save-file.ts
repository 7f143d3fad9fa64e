/**
 * Files the cert pages hand to the user: PEM text, DER bytes, a converted file. Built in the
 * page and saved through a temporary link, so nothing sensitive (a private key) is ever put
 * in a URL a server sees.
 */

export function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function saveText(fileName: string, text: string, mediaType = 'application/x-pem-file'): void {
  saveBlob(fileName, new Blob([text], { type: mediaType }));
}

export function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64.replace(/\s+/g, ''));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let bin = '';
  // in slices: String.fromCharCode(...all) overflows the call stack on a large file
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** The DER of the first PEM block (a certificate's PEM is base64 of its DER between the armour lines). */
export function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const m = /-----BEGIN [^-]+-----([\s\S]*?)-----END [^-]+-----/.exec(pem);
  return base64ToBytes(m?.[1] ?? '');
}

export function saveDer(fileName: string, pem: string): void {
  saveBlob(fileName, new Blob([pemToDer(pem)], { type: 'application/pkix-cert' }));
}

/** A file name from a certificate's common name: letters, digits, dot, dash and underscore only. */
export function fileBase(name: string, fallback = 'certificate'): string {
  const clean = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+|_+$/g, '');
  return clean.slice(0, 64) || fallback;
}

/** Saves a downloaded answer under the name the server proposes (Content-Disposition), or `fallback`. */
export async function downloadResponse(res: Response, fallback: string): Promise<string> {
  const m = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '');
  const name = m?.[1] ?? fallback;
  saveBlob(name, await res.blob());
  return name;
}
