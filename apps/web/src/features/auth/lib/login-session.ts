/**
 * SPEC §3 "Login session state" (client_id, redirect_uri, state, realm_id, country, lang,
 * challenge; DESIGN.md §4 adds callback_uri, and the console's own `redirect`) travels in the
 * query string from one public screen to the next, so that a visitor who registers or
 * recovers a password on the way lands back in the sign-in they started. force_password comes
 * from the server's sign-in answer and serialNo from the form being answered.
 */
export const LOGIN_SESSION_PARAMS = ['client_id', 'redirect_uri', 'callback_uri', 'state', 'realm_id', 'country', 'lang', 'challenge', 'redirect'] as const;

/** `path` with the login session parameters of `search` that it does not set itself. */
export function withLoginSession(path: string, search: string = window.location.search): string {
  const [pathname, query = ''] = path.split('?', 2) as [string, string?];
  const from = new URLSearchParams(search);
  const to = new URLSearchParams(query);
  for (const name of LOGIN_SESSION_PARAMS) {
    const value = from.get(name);
    if (value !== null && !to.has(name)) to.set(name, value);
  }
  const qs = to.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}
