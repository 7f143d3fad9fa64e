/**
 * The 403/404/500 screen as a lazy chunk. Its own module: the route table (screens.tsx) and the
 * shell (shell/basic-layout.tsx, which shows 403 for a route the user may not open) both use
 * it, and the route table lazily imports the shell.
 */
import { lazyScreen } from './lazy-screen';

export const ExceptionPage = lazyScreen(() => import('../components/exception-page'));
