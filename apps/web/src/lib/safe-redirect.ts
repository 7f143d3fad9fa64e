/**
 * Where to go after sign-in (SPEC §2 redirect query). Only same-origin relative paths are
 * followed, never an absolute or protocol-relative URL (SECURITY.md AS-03: no open redirects).
 */
import { HOME_PATH, SIGN_IN_PATH } from '@umbo/contracts/routes';

const SIGN_IN_PATHS = new Set([SIGN_IN_PATH, '/login', '/user']);

export function safeRedirectTarget(raw: string | null | undefined, origin: string): string {
  if (!raw) return HOME_PATH;
  const target = normalise(raw, origin);
  // Resolving dot segments can make what the raw check refuses: `/.//evil.test/x` becomes
  // `//evil.test/x`, a protocol-relative URL for whoever navigates with it (issue 8, defect 11).
  // So the result must pass the whole check again and come back unchanged; anything else is
  // not worth guessing about.
  if (target === undefined || normalise(target, origin) !== target) return HOME_PATH;
  return target;
}

/** A path that cannot be read as another origin: not `//…`, no backslash (browsers read `/\` as `//`). */
function looksLocal(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return false;
  // Control characters could be read differently by the browser than by this check.
  return !/[\u0000-\u001f\u007f]/.test(path);
}

/** The same-origin path, query and hash `raw` resolves to, or undefined when it must not be followed. */
function normalise(raw: string, origin: string): string | undefined {
  if (!looksLocal(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== origin) return undefined;
  // Going back to the sign-in page after signing in would loop.
  if (SIGN_IN_PATHS.has(url.pathname)) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The sign-in URL that brings the visitor back to `fullPath` afterwards. A `realm_id` in that
 * path's query is the realm to sign in to, so it goes to the sign-in page too (a device's
 * verification URI names its realm so, RFC 8628 §3.2: /device?realm_id=…).
 */
export function signInUrlFor(fullPath: string): string {
  const realmId = new URLSearchParams(fullPath.split('#')[0]!.split('?')[1] ?? '').get('realm_id');
  const realm = realmId ? `realm_id=${encodeURIComponent(realmId)}&` : '';
  return `${SIGN_IN_PATH}?${realm}redirect=${encodeURIComponent(fullPath)}`;
}
