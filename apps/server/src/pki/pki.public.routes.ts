/**
 * What devices and brokers fetch without a token (issue 13): a CA's certificate (AIA
 * caIssuers, DER) and its CRL (CRL distribution point, DER; PEM for people and Mosquitto).
 * Only CAs visible from the realm in the path are answered (ca.signerOf's rule); else 404 —
 * and so is every other path under /pki.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CaService } from './ca.service.js';
import type { CrlService } from './crl.js';

/** CRLs change on every revocation: caches may keep one a minute at most. */
const CRL_CACHE = 'public, max-age=60';

export function registerPkiPublicRoutes(app: FastifyInstance, deps: { ca: CaService; crl: CrlService }): void {
  const params = (req: FastifyRequest) => req.params as { realmId: string; file: string };
  const notFound = (reply: FastifyReply) => reply.status(404).type('text/plain').send('not found');

  // one route: find-my-way takes no two parametric suffixes (.crt / .crl / .crl.pem) on one segment
  app.get('/pki/realms/:realmId/cas/:file', { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const { realmId, file } = params(req);
    const m = /^([A-Za-z0-9]{1,64})\.(crt|crl|crl\.pem)$/.exec(file);
    if (!m) return notFound(reply);
    const signer = await deps.ca.signerOf(realmId, m[1]!);
    if (!signer) return notFound(reply);
    if (m[2] === 'crt') return reply.type('application/pkix-cert').header('cache-control', 'public, max-age=3600').send(Buffer.from(signer.certDer));
    const crl = await deps.crl.current(signer.caId);
    if (m[2] === 'crl') return reply.type('application/pkix-crl').header('cache-control', CRL_CACHE).send(crl.der);
    return reply.type('application/x-pem-file').header('cache-control', CRL_CACHE).send(crl.pem);
  });

  // Anything else under /pki is a device or broker asking for a file we do not have: a plain
  // 404, not the console's page (the SPA fallback answers every unknown GET with index.html).
  // find-my-way prefers the static and parametric routes above (and OCSP's) to this wildcard.
  for (const url of ['/pki', '/pki/*']) {
    app.get(url, { config: { access: 'public' }, schema: { hide: true } }, async (_req, reply) => notFound(reply));
  }
}
