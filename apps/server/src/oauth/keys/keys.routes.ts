/**
 * The console's doors to a realm's signing keys (issue 12): list (domain.query) and rotate
 * (domain.update), decided by the guard in the named realm. HTTP only; rules in
 * keys.service.ts. Answers never carry private material.
 */
import { realmParams, signingKeyList } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, requestMeta } from '../../audit/request-meta.js';
import { ok, responses } from '../../platform/http.js';
import type { OAuthKeysService } from './keys.service.js';

const tags = ['oauth'];

export function registerOAuthKeyRoutes(app: FastifyInstance, deps: { keys: OAuthKeysService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { keys } = deps;
  const listOf = async (realmId: string, list: Awaited<ReturnType<OAuthKeysService['list']>>) => ({
    discoveryUrl: `${keys.issuer(realmId)}/.well-known/openid-configuration`,
    keys: list,
  });

  r.get(
    '/api/users/realms/:realmId/oauth/keys',
    {
      config: { access: 'domain.query', realm: 'params.realmId' },
      schema: { tags, params: realmParams, response: responses(signingKeyList), summary: "The realm's published signing keys (kid, alg, dates, status)" },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await listOf(req.params.realmId, await keys.list(req.params.realmId)));
    },
  );

  r.post(
    '/api/users/realms/:realmId/oauth/keys/rotate',
    {
      config: { access: 'domain.update', realm: 'params.realmId' },
      schema: {
        tags,
        params: realmParams,
        response: responses(signingKeyList),
        summary: 'Rotate the signing keys: new keys published now, signing after the JWKS cache lifetime; old ones kept until their tokens expire',
      },
    },
    async (req) => {
      const list = await keys.rotate(req.params.realmId, { actor: actorOf(req), request: requestMeta(req) });
      return ok(await listOf(req.params.realmId, list));
    },
  );
}
