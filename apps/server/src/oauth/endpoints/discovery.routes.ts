/**
 * GET {issuer}/.well-known/openid-configuration and GET {issuer}/oauth/jwks (issue 12, A-24).
 * Public, cacheable for JWKS_CACHE_MAX_AGE_SEC (the time instances may disagree about keys,
 * oauth/keys/keys.service.ts), readable cross-origin: browser relying parties fetch them
 * (OIDC Discovery §4; the only two provider endpoints with `Access-Control-Allow-Origin: *`:
 * they carry no user data and take no credentials). Unknown realm: 404 `{error:'not_found'}`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { JWKS_CACHE_MAX_AGE_SEC } from '../defaults.js';
import type { OAuthKeysService } from '../keys/keys.service.js';
import { discoveryDocument } from './discovery.js';

const REALM_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function registerDiscoveryRoutes(app: FastifyInstance, deps: { keys: OAuthKeysService }) {
  const { keys } = deps;

  /** The realm id of the path when the realm exists; else the 404 is sent. */
  async function knownRealm(params: unknown, reply: FastifyReply): Promise<string | undefined> {
    const realmId = (params as { realmId?: string }).realmId ?? '';
    if (REALM_ID.test(realmId) && (await keys.realmExists(realmId))) return realmId;
    void reply.status(404).header('cache-control', 'no-store').send({ error: 'not_found', error_description: 'unknown realm' });
    return undefined;
  }

  const publicCacheable = (reply: FastifyReply) =>
    reply.header('cache-control', `public, max-age=${JWKS_CACHE_MAX_AGE_SEC}`).header('access-control-allow-origin', '*');

  app.get('/realms/:realmId/.well-known/openid-configuration', { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const realmId = await knownRealm(req.params, reply);
    if (!realmId) return reply;
    return publicCacheable(reply).send(discoveryDocument(keys.issuer(realmId)));
  });

  app.get('/realms/:realmId/oauth/jwks', { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const realmId = await knownRealm(req.params, reply);
    if (!realmId) return reply;
    // RFC 7517 §8.5: application/jwk-set+json
    return publicCacheable(reply)
      .type('application/jwk-set+json')
      .send(await keys.jwks(realmId));
  });
}
