/**
 * Where to go after sign-in (SPEC §2 redirect query). Only same-origin relative paths are
 * followed, never an absolute or protocol-relative URL (SECURITY.md AS-03: no open redirects).
 */
import { HOME_PATH, SIGN_IN_PATH } from '@umbo/contracts/routes';

const SIGN_IN_PATHS = new Set([SIGN_IN_PATH, '/login', '/user']);

export function safeRedirectTarget(raw: string | null | undefined, origin: string): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return HOME_PATH;
  // Control characters could be read differently by the browser than by this check.
  if (/[\u0000-\u001f\u007f]/.test(raw)) return HOME_PATH;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return HOME_PATH;
  }
  if (url.origin !== origin) return HOME_PATH;
  // Going back to the sign-in page after signing in would loop.
  if (SIGN_IN_PATHS.has(url.pathname)) return HOME_PATH;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in URL that brings the visitor back to `fullPath` afterwards. */
export function signInUrlFor(fullPath: string): string {
  return `${SIGN_IN_PATH}?redirect=${encodeURIComponent(fullPath)}`;
}
