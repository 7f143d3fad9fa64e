/**
 * Access rule of SPEC §2: an anonymous visitor to a signed-in route goes to the sign-in page
 * with the full path in `redirect`. Signed-in routes also carry the displayServiceAccount /
 * displayClient pair from the previous route (default the string 'false').
 */
import { CARRIED_QUERY } from '@umbo/contracts/routes';
import { useLayoutEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { signInUrlFor } from '../lib/safe-redirect';
import { getToken } from '../lib/token';

type Carried = Record<(typeof CARRIED_QUERY)[number], string>;

/** The pair as last seen on a signed-in route; module state so it survives layout remounts. */
let lastCarried: Carried = { displayServiceAccount: 'false', displayClient: 'false' };

/** The search string with the carried pair completed, or undefined when nothing is missing. */
export function completeCarriedQuery(search: string, previous: Carried): string | undefined {
  const params = new URLSearchParams(search);
  let changed = false;
  for (const name of CARRIED_QUERY) {
    if (!params.has(name)) {
      params.set(name, previous[name]);
      changed = true;
    }
  }
  return changed ? `?${params.toString()}` : undefined;
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const signedIn = getToken() !== undefined;
  const completed = signedIn ? completeCarriedQuery(location.search, lastCarried) : undefined;

  // Completing the query replaces the URL while the shell stays mounted (a <Navigate> here
  // would unmount it, and with it the open tabs).
  useLayoutEffect(() => {
    if (completed !== undefined) navigate({ pathname: location.pathname, search: completed, hash: location.hash }, { replace: true });
    else if (signedIn) {
      const params = new URLSearchParams(location.search);
      lastCarried = { displayServiceAccount: params.get('displayServiceAccount')!, displayClient: params.get('displayClient')! };
    }
  }, [completed, signedIn, location.pathname, location.search, location.hash, navigate]);

  if (!signedIn) return <Navigate to={signInUrlFor(`${location.pathname}${location.search}${location.hash}`)} replace />;
  return children;
}
