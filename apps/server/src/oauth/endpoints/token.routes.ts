/**
 * POST {issuer}/oauth/token (RFC 6749 §3.2, §5; AS-11, AS-14; ). Steps:
 *
 * 1. POST only (other methods: 405); `Cache-Control: no-store` and `Pragma: no-cache` on
 *    every answer, success or error (oauth-http.ts sendJson, which every answer goes through);
 * 2. the form body, each parameter once (oauth-http.ts readForm: repeated → invalid_request,
 *    unknown ones ignored);
 * 3. grant_type is one of the registry's (grants/index.ts) — `password`, implicit and anything
 *    else: unsupported_grant_type;
 * 4. the client authenticates (checks/client-auth.ts; a public client names itself);
 * 5. the client is registered for that grant (unauthorized_client; for token exchange the
 *    sub client's allowToken is the registration, checked by the grant); client_credentials and
 *    token exchange never for a public client;
 * 6. the grant answers, and the outcome is audited (never a token).
 */
import { CONFIDENTIAL_ONLY_GRANTS, type GrantType } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { ClientAuth } from '../checks/client-auth.js';
import { InvalidRequest, OAuthError, UnauthorizedClient, UnsupportedGrantType } from '../errors.js';
import { TOKEN_EXCHANGE_GRANT, type GrantContext, type GrantHandler } from '../grants/types.js';
import type { TokenEvents } from '../tokens/token-events.js';
import { refuseAllButPost, oauthScope, readForm, realmParam, sendJson, tokenResponseJson } from './oauth-http.js';

export interface TokenRouteDeps {
  grants: Readonly<Record<string, GrantHandler>>;
  clientAuth: ClientAuth;
  events: TokenEvents;
  clock: Clock;
  issuer(realmId: string): string;
}

const PATH = '/realms/:realmId/oauth/token';

export function registerTokenRoutes(app: FastifyInstance, deps: TokenRouteDeps): void {
  oauthScope(app, (scope) => {
    refuseAllButPost(scope, PATH);

    scope.post(PATH, { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
      const realmId = realmParam(req);
      const params = readForm(req);
      const grantType = params.grant_type;
      if (!grantType) throw new InvalidRequest('grant_type is required');
      const grant = Object.hasOwn(deps.grants, grantType) ? deps.grants[grantType] : undefined;
      if (!grant) throw new UnsupportedGrantType(`grant_type ${grantType.slice(0, 60)} is not supported`);

      const { client } = await deps.clientAuth.authenticate(
        { realmId, authorization: req.headers.authorization, params, endpointUrl: `${deps.issuer(realmId)}/oauth/token` },
        { allowPublic: true },
      );
      const request = { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') };
      const meta = { realmId, client, grantType, request };
      const ctx: GrantContext = { realmId, client, params, ...request, now: deps.clock.now(), trace: {} };
      try {
        if (grantType !== TOKEN_EXCHANGE_GRANT && !client.grantTypes.includes(grantType)) {
          throw new UnauthorizedClient(`this client may not use the ${grantType.slice(0, 60)} grant`);
        }
        if (client.tokenEndpointAuthMethod === 'none' && CONFIDENTIAL_ONLY_GRANTS.includes(grantType as GrantType)) {
          throw new UnauthorizedClient('a public client may not use this grant');
        }
        const response = await grant(ctx);
        const audited = deps.events.succeeded(meta, ctx.trace);
        if (audited) await audited;
        return sendJson(reply, 200, tokenResponseJson(response));
      } catch (err) {
        if (err instanceof OAuthError) await deps.events.failed(meta, ctx.trace, err);
        throw err;
      }
    });
  });
}
