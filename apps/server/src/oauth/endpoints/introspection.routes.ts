/**
 * POST {issuer}/oauth/introspect (RFC 7662; AS-22; A-19). Steps:
 *
 * 1. the caller authenticates as a confidential client (§2.1: protects against token scanning;
 *    a public client cannot) — else 401 invalid_client;
 * 2. `token` is required (invalid_request); token_type_hint is only a hint: a JWT is read as an
 *    access token, anything else as a refresh token;
 * 3. active only when the token is live (access-tokens.ts, or the refresh token, its family and
 *    its user) AND concerns the caller: issued to it (`client_id`) or naming it in `aud`. Decided
 *    (§4 leaves it to the server): a client learns nothing about other clients' tokens, so a
 *    resource server introspects as the client the tokens are issued to;
 * 4. inactive → exactly `{"active":false}` (§2.2): unknown, expired, revoked, garbage, another
 *    realm's, another client's.
 */
import type { FastifyInstance } from 'fastify';
import type { OAuthClient } from '../../clients/clients.repo.js';
import type { AccountRepo } from '../../accounts/accounts.repo.js';
import type { Clock } from '../../platform/clock.js';
import type { ClientAuth } from '../checks/client-auth.js';
import { InvalidRequest } from '../errors.js';
import type { RefreshTokenRepo } from '../store/refresh-tokens.repo.js';
import type { ValidateAccessToken } from '../tokens/access-tokens.js';
import { NO_STORE, oauthScope, readForm, realmParam, sendJson } from './oauth-http.js';

const PATH = '/realms/:realmId/oauth/introspect';
const INACTIVE = '{"active":false}';

export interface IntrospectionDeps {
  clientAuth: ClientAuth;
  validateAccessToken: ValidateAccessToken;
  refreshTokens: Pick<RefreshTokenRepo, 'findWithFamily'>;
  accounts: Pick<AccountRepo, 'findAccountById'>;
  hashRefresh(value: string): string;
  issuer(realmId: string): string;
  clock: Clock;
}

export function registerIntrospectionRoutes(app: FastifyInstance, deps: IntrospectionDeps): void {
  async function accessToken(realmId: string, caller: OAuthClient, token: string) {
    const check = await deps.validateAccessToken(realmId, token);
    if (!check.ok) return undefined;
    const c = check.claims;
    const aud = Array.isArray(c.aud) ? c.aud : [c.aud];
    if (c.client_id !== caller.clientId && !aud.includes(caller.clientId)) return undefined;
    return {
      active: true,
      scope: c.scope,
      client_id: c.client_id,
      ...(check.account ? { username: check.account.username } : {}),
      token_type: 'Bearer',
      exp: c.exp,
      iat: c.iat,
      sub: c.sub,
      aud: c.aud,
      iss: c.iss,
      jti: c.jti,
      ...(c.auth_time !== undefined ? { auth_time: c.auth_time } : {}),
      ...(c.act ? { act: c.act } : {}),
    };
  }

  async function refreshToken(realmId: string, caller: OAuthClient, token: string) {
    if (token.length > 256) return undefined;
    const rt = await deps.refreshTokens.findWithFamily(deps.hashRefresh(token));
    const now = deps.clock.now();
    if (!rt || rt.realm_id !== realmId || rt.family_client_ref !== caller.id) return undefined;
    if (rt.used_at !== null || rt.family_revoked_at !== null || Number(rt.expires_at) <= now || Number(rt.family_expires_at) <= now) return undefined;
    const account = rt.family_account_id ? await deps.accounts.findAccountById(realmId, rt.family_account_id) : undefined;
    if (!account || account.disabled) return undefined;
    return {
      active: true,
      scope: rt.family_scope,
      client_id: caller.clientId,
      username: account.username,
      token_type: 'refresh_token',
      exp: Math.floor(Number(rt.expires_at) / 1000),
      iat: Math.floor(Number(rt.created_at) / 1000),
      sub: account.id,
      iss: deps.issuer(realmId),
    };
  }

  oauthScope(app, (scope) => {
    scope.post(PATH, { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
      reply.headers(NO_STORE);
      const realmId = realmParam(req);
      const params = readForm(req);
      const { client } = await deps.clientAuth.authenticate(
        { realmId, authorization: req.headers.authorization, params, endpointUrl: `${deps.issuer(realmId)}/oauth/introspect` },
        { allowPublic: false },
      );
      const token = params.token;
      if (!token) throw new InvalidRequest('token is required');
      const answer = token.includes('.') ? await accessToken(realmId, client, token) : await refreshToken(realmId, client, token);
      return sendJson(reply, 200, answer ?? INACTIVE);
    });
  });
}
