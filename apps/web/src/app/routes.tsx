/** The route tree of SPEC §2 in history mode, built from contracts/routes.ts. */
import { NOT_FOUND_PATH, PUBLIC_ROUTES, ROUTE_REDIRECTS, SIGNED_IN_ROUTES } from '@umbo/contracts/routes';
import type { ReactElement } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { getToken } from '../lib/token';
import { RequireAuth } from './guards';
import { PublicLayout } from './public-layout';
import { BasicLayout, LIGHT_PUBLIC, RichProviders, screenFor } from './screens';

const EXCEPTIONS = new Set(['403', '404', '500']);

/** One layout or the other, by whether a session exists when the route renders. */
function BySession({ signedIn, anonymous }: { signedIn: ReactElement; anonymous: ReactElement }) {
  return getToken() === undefined ? anonymous : signedIn;
}

export function ConsoleRoutes() {
  return (
    <Routes>
      {Object.entries(ROUTE_REDIRECTS).map(([from, to]) => (
        <Route key={from} path={from} element={<Navigate to={to} replace />} />
      ))}
      <Route element={<PublicLayout />}>
        {PUBLIC_ROUTES.filter((r) => LIGHT_PUBLIC.has(r.name)).map((r) => (
          <Route key={r.name} path={r.path} element={screenFor(r)} />
        ))}
        <Route element={<RichProviders />}>
          {PUBLIC_ROUTES.filter((r) => !LIGHT_PUBLIC.has(r.name) && !EXCEPTIONS.has(r.name)).map((r) => (
            <Route key={r.name} path={r.path} element={screenFor(r)} />
          ))}
        </Route>
      </Route>
      <Route
        element={
          <RequireAuth>
            <RichProviders />
          </RequireAuth>
        }
      >
        <Route element={<BasicLayout />}>
          {SIGNED_IN_ROUTES.map((r) => (
            <Route key={r.name} path={r.path} element={screenFor(r)} />
          ))}
        </Route>
      </Route>
      {/* 403/404/500 answer anyone (SPEC §2); a signed-in visitor sees them inside the shell. */}
      <Route element={<BySession signedIn={<RichProviders />} anonymous={<PublicLayout />} />}>
        <Route element={<BySession signedIn={<BasicLayout />} anonymous={<RichProviders />} />}>
          {PUBLIC_ROUTES.filter((r) => EXCEPTIONS.has(r.name)).map((r) => (
            <Route key={r.name} path={r.path} element={screenFor(r)} />
          ))}
        </Route>
      </Route>
      <Route path="*" element={<Navigate to={NOT_FOUND_PATH} replace />} />
    </Routes>
  );
}
