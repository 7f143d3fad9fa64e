/** The console route (contracts routes.ts) the current location shows, if any. */
import { CONSOLE_ROUTES, type ConsoleRoute } from '@umbo/contracts/routes';
import { useLocation } from 'react-router';

const byPath = new Map(CONSOLE_ROUTES.map((r) => [r.path.toLowerCase(), r]));

/** Route paths are static, so a lookup by path is the match (react-router ignores case too). */
export function findRoute(pathname: string): ConsoleRoute | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return byPath.get(path.toLowerCase());
}

export function useRouteMeta(): ConsoleRoute | undefined {
  return findRoute(useLocation().pathname);
}
