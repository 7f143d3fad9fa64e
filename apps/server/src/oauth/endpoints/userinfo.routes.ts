/**
 * GET and POST {issuer}/oauth/userinfo (OIDC Core §5.3; RFC 6750; A-21). Steps:
 *
 * 1. the bearer token, from `Authorization: Bearer` or (POST) the form's access_token — one
 *    method only (RFC 6750 §2); none → 401 `WWW-Authenticate: Bearer` without an error (§3.1);
 * 2. an active user access token of this realm (access-tokens.ts: an ID token, a revoked or
 *    expired token, a token of another realm → 401 error="invalid_token"); a client's own
 *    (client_credentials) token has no user → 401 invalid_token;
 * 3. `openid` among its scopes, else 403 error="insufficient_scope" (§5.3: userinfo is OIDC);
 * 4. `sub` (the ID token's, §5.3.2) and the claims of the granted scopes only (claims.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OAuthError } from '../errors.js';
import { scopeSet, userClaims } from '../tokens/claims.js';
import type { ValidateAccessToken } from '../tokens/access-tokens.js';
import { NO_STORE, oauthScope, realmParam, sendJson } from './oauth-http.js';

const PATH = '/realms/:realmId/oauth/userinfo';

export interface UserinfoDeps {
  validateAccessToken: ValidateAccessToken;
  realmExists(realmId: string): Promise<boolean>;
}

const challenge = (error?: string, description?: string) =>
  `Bearer realm="userinfo"${error ? `, error="${error}"` : ''}${description ? `, error_description="${description}"` : ''}`;

function bearerError(status: 401 | 403 | 400, error: 'invalid_token' | 'insufficient_scope' | 'invalid_request', description: string): OAuthError {
  return new OAuthError(error, description, status, { 'WWW-Authenticate': challenge(error, description) });
}

function presentedToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  const fromHeader = header && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : undefined;
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  const body = req.method === 'POST' && type.startsWith('application/x-www-form-urlencoded') ? (req.body as Record<string, unknown> | undefined) : undefined;
  const fromBody = body?.access_token;
  if (Array.isArray(fromBody) || (fromHeader && fromBody !== undefined)) throw bearerError(400, 'invalid_request', 'one access token, one method');
  return fromHeader || (typeof fromBody === 'string' && fromBody !== '' ? fromBody : undefined);
}

export function registerUserinfoRoutes(app: FastifyInstance, deps: UserinfoDeps): void {
  oauthScope(app, (scope) => {
    scope.route({
      method: ['GET', 'POST'],
      url: PATH,
      config: { access: 'public' },
      schema: { hide: true },
      handler: async (req, reply) => {
        reply.headers(NO_STORE);
        const realmId = realmParam(req);
        const token = presentedToken(req);
        if (!token) throw new OAuthError('invalid_token', 'an access token is required', 401, { 'WWW-Authenticate': challenge() });
        const check = await deps.validateAccessToken(realmId, token);
        if (!check.ok) {
          if (!(await deps.realmExists(realmId))) throw new OAuthError('invalid_request', 'unknown realm', 404);
          throw bearerError(401, 'invalid_token', 'the access token is not active');
        }
        if (!check.account) throw bearerError(401, 'invalid_token', 'a client token has no user');
        const scopes = scopeSet(check.claims.scope);
        if (!scopes.has('openid')) throw bearerError(403, 'insufficient_scope', 'the openid scope is required');
        return sendJson(reply, 200, { sub: check.account.id, ...userClaims(check.account, scopes) });
      },
    });
  });
}
