/**
 * POST {issuer}/oauth/revoke (RFC 7009; AS-21; A-20). Steps:
 *
 * 1. the client authenticates (a public client names itself, §2.1); `token` is required;
 * 2. a refresh token of this client: its family is revoked — the refresh token, every access
 *    token of the grant and every grant derived from it (§2.1 "SHOULD also invalidate all access
 *    tokens based on the same authorization grant");
 * 3. an access token of this client (signature and issuer checked): its jti is revoked until it
 *    expires (the grant's other tokens stay, §2.1 leaves it open);
 * 4. a token issued to ANOTHER client is refused (§2.1) and stays active: 400
 *    unauthorized_client (decided: §2.2.1 names no code for it; this one says "not yours");
 * 5. anything else — unknown, expired, garbage, another realm's — is 200, as if revoked (§2.2).
 */
import type { FastifyInstance } from 'fastify';
import type { ClientAuth } from '../checks/client-auth.js';
import { InvalidRequest, UnauthorizedClient } from '../errors.js';
import { JwtError } from '../jwt.js';
import type { RefreshTokenRepo } from '../store/refresh-tokens.repo.js';
import type { TokenEvents } from '../tokens/token-events.js';
import type { TokenRevocation } from '../tokens/revocation.js';
import { NO_STORE, oauthScope, readForm, realmParam } from './oauth-http.js';

const PATH = '/realms/:realmId/oauth/revoke';

export interface RevocationDeps {
  clientAuth: ClientAuth;
  verify(realmId: string, jwt: string, opts: { typ: string }): Promise<Record<string, unknown>>;
  refreshTokens: Pick<RefreshTokenRepo, 'findWithFamily'>;
  hashRefresh(value: string): string;
  revocation: TokenRevocation;
  events: TokenEvents;
  issuer(realmId: string): string;
}

export function registerRevocationRoutes(app: FastifyInstance, deps: RevocationDeps): void {
  async function verified(realmId: string, token: string): Promise<Record<string, unknown> | undefined> {
    try {
      return await deps.verify(realmId, token, { typ: 'at+jwt' });
    } catch (err) {
      if (err instanceof JwtError) return undefined;
      throw err;
    }
  }

  oauthScope(app, (scope) => {
    scope.post(PATH, { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
      reply.headers(NO_STORE);
      const realmId = realmParam(req);
      const params = readForm(req);
      const { client } = await deps.clientAuth.authenticate(
        { realmId, authorization: req.headers.authorization, params, endpointUrl: `${deps.issuer(realmId)}/oauth/revoke` },
        { allowPublic: true },
      );
      const token = params.token;
      if (!token) throw new InvalidRequest('token is required');
      const meta = { realmId, client, request: { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') } };
      if (token.includes('.')) {
        const claims = await verified(realmId, token);
        if (claims && typeof claims.jti === 'string' && typeof claims.exp === 'number') {
          if (claims.client_id !== client.clientId) throw new UnauthorizedClient('the token was issued to another client');
          await deps.revocation.revokeAccessToken(realmId, claims.jti, claims.exp * 1000);
          await deps.events.revoked(meta, 'access_token');
        }
      } else if (token.length <= 256) {
        const rt = await deps.refreshTokens.findWithFamily(deps.hashRefresh(token));
        if (rt && rt.realm_id === realmId) {
          if (rt.family_client_ref !== client.id) throw new UnauthorizedClient('the token was issued to another client');
          await deps.revocation.revokeFor({ realmId, familyId: rt.family_id, reason: 'revocation' });
          await deps.events.revoked(meta, 'refresh_token');
        }
      }
      return reply.status(200).send();
    });
  });
}
