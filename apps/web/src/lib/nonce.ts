/**
 * The per-response CSP nonce the server writes into index.html (`__CSP_NONCE__` is replaced).
 * Undefined under `vite dev`, which serves the page without a CSP.
 */
export function readCspNonce(doc: Document = document): string | undefined {
  const value = doc.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  return value && value !== '__CSP_NONCE__' ? value : undefined;
}
