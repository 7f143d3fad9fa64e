/**
 * The authorization response URLs (RFC 6749 §4.1.2, §4.1.2.1) with `iss` (RFC 9207 §2,
 * AS-18). The registered redirect URI is kept byte for byte: parameters are appended to its
 * query, never parsed and re-serialised (it may already carry a query, RFC 6749 §3.1.2).
 */
function withQuery(redirectUri: string, params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.append(k, v);
  const sep = redirectUri.includes('?') ? (redirectUri.endsWith('?') || redirectUri.endsWith('&') ? '' : '&') : '?';
  return `${redirectUri}${sep}${q.toString()}`;
}

export function successRedirect(redirectUri: string, code: string, state: string | undefined, iss: string): string {
  return withQuery(redirectUri, { code, state, iss });
}

export function errorRedirect(redirectUri: string, error: string, description: string, state: string | undefined, iss: string): string {
  return withQuery(redirectUri, { error, error_description: description, state, iss });
}
