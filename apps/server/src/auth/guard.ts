/**
 * Server-side access control on every route (SPEC §6, A-38). A route declares
 * `config.access`; a route under /api without one stops the server at start. A route that
 * acts in a realm named by the request also declares where that realm comes from
 * (`config.realm: 'params.realmId'`): the permission is then decided *in that realm* before
 * any work, with the same 1003 whether or not the realm exists, so nobody learns which
 * realm ids exist (A-39; issue 9). Without `realm`, a permission is checked in the caller's
 * own realm.
 */
import type { Action } from '@umbo/contracts';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { Account } from '../accounts/accounts.repo.js';
import { fail } from '../platform/errors.js';
import type { PermService, Principal } from '../perm/perm.service.js';
import type { Session } from './sessions.repo.js';
import type { SessionService } from './sessions.service.js';

export interface AuthState {
  token: string;
  session: Session;
  account: Account;
  principal: Principal;
  /** kept with the guard's cache entry for this token (auth-cache.ts `Resolved.memo`) */
  memo: Map<string, unknown>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthState | null;
  }
}

export function bearerToken(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1];
}

/** Where a realm-scoped route finds its realm: a path parameter, a query or a body field. */
export type RealmSource = `${'params' | 'query' | 'body'}.${string}`;

export interface RouteAccess {
  method: string;
  url: string;
  access: string;
  /** present on realm-scoped routes */
  realm?: RealmSource;
}

/** The realm a request names through `source` ('' when it names none: nobody but admin passes). */
function realmNamed(req: FastifyRequest, source: RealmSource): string {
  const dot = source.indexOf('.');
  const bag = req[source.slice(0, dot) as 'params' | 'query' | 'body'] as Record<string, unknown> | undefined;
  const value = bag?.[source.slice(dot + 1)];
  return typeof value === 'string' ? value : '';
}

declare module 'fastify' {
  interface FastifyInstance {
    /** every /api route with its access rule: the permission registry tests walk */
    accessRegistry: RouteAccess[];
  }
}

export function registerGuard(app: FastifyInstance, deps: { sessions: SessionService; perm: PermService }): void {
  app.decorateRequest('auth', null);
  const registry: RouteAccess[] = [];
  app.decorate('accessRegistry', registry);

  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!(url.startsWith('/api/') || url.startsWith('/realms/'))) return;
    const access = route.config?.access;
    if (!access) throw new Error(`route ${route.method} ${url} declares no access rule (config.access)`);
    const realm = route.config?.realm;
    if (realm && !access.includes('.')) throw new Error(`route ${route.method} ${url} names a realm but no permission to check in it`);
    if (realm && !/^(params|query|body)\.\w+$/.test(realm)) throw new Error(`route ${route.method} ${url}: config.realm must be params.X, query.X or body.X`);
    // OpenAPI: every route behind the guard says it needs the bearer token (clients generated
    // from the document must know); hidden routes stay out of the document anyway.
    if (access !== 'public' && route.schema && !route.schema.security) route.schema.security = [{ bearer: [] }];
    for (const method of [route.method].flat()) if (method !== 'HEAD') registry.push({ method, url, access, ...(realm ? { realm } : {}) });
  });

  /** The access check of a route that is not public. */
  async function check(req: FastifyRequest, config: FastifyContextConfig, access: string): Promise<void> {
    const token = bearerToken(req);
    // Session, account and principal, from the process's cache while nothing they depend on
    // changed on any instance (auth-cache.ts): revocation stays immediate everywhere.
    const found = token ? await deps.sessions.resolve(token) : undefined;
    if (!token || !found) throw fail('UNAUTHORIZED');
    const { principal } = found;
    req.auth = { token, ...found };
    if (found.account.force_password && !config.allowWhilePasswordChangeRequired) {
      throw fail('PASSWORD_CHANGE_REQUIRED');
    }
    if (access === 'session') return;
    const [permissionId, action] = access.split('.') as [string, Action];
    const source = config.realm;
    const realmId = source ? realmNamed(req, source) : principal.realmId;
    if (!deps.perm.allows(principal, permissionId, action, realmId)) {
      throw fail('FORBIDDEN', { service: 'users', resource: permissionId, perm: action });
    }
  }

  // Before body/params validation: an anonymous caller gets 401, not a 400 that describes the body.
  // A callback hook: a public route passes without a promise (issue 11 bench).
  app.addHook('preValidation', (req, _reply, done) => {
    // routeOptions is a getter that builds a new object on every read: read it once.
    const config = req.routeOptions.config;
    const access = config?.access;
    if (!access || access === 'public') return done();
    check(req, config, access).then(() => done(), done);
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** routes a service account must still reach before it sets its first password */
    allowWhilePasswordChangeRequired?: boolean;
    /** realm-scoped routes: where the realm the permission is checked in comes from */
    realm?: RealmSource;
  }
}
