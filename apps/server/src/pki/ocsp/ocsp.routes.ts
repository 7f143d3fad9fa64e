/**
 * The OCSP responder over HTTP (RFC 6960 Appendix A; issue 13), public — devices and brokers
 * ask without a token:
 *   POST pkiPaths.publicOcsp(realmId, caId)              body: the DER OCSPRequest
 *   GET  pkiPaths.publicOcsp(realmId, caId)/{base64 DER}  the request, base64 (URL-encoded or not)
 * Every answer is 200 application/ocsp-response; problems are OCSPResponse statuses
 * (malformedRequest, unauthorized, tryLater: responder.ts), never a JSON error or a 500.
 * A request body over OCSP_BODY_LIMIT is Fastify's 413 before we read it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OCSP_VALIDITY_MS, ocspError, type OcspAnswer, type OcspResponder } from './responder.js';

const PATH = '/pki/realms/:realmId/cas/:caId/ocsp';
/** an OCSPRequest for OCSP_MAX_CERT_IDS CertIDs with a signature and certs stays well under this */
export const OCSP_BODY_LIMIT = 64 * 1024;
const MEDIA = 'application/ocsp-response';
/**
 * A GET answer without a nonce may be cached (RFC 5019 §6), but not long: a revocation should
 * reach the devices asking through a cache within a minute.
 */
const GET_MAX_AGE_SEC = Math.min(60, OCSP_VALIDITY_MS / 1000);

/** Base64 of the path (RFC 6960 Appendix A.1): standard alphabet, URL-safe accepted too. */
function decodePathRequest(raw: string): Uint8Array | undefined {
  const text = raw.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}

function send(reply: FastifyReply, answer: OcspAnswer, cacheable: boolean) {
  const cache = cacheable && !answer.nonce && answer.status === 'successful' ? `public, max-age=${GET_MAX_AGE_SEC}, no-transform` : 'no-store';
  return reply.status(200).type(MEDIA).header('cache-control', cache).send(answer.der);
}

export function registerOcspRoutes(app: FastifyInstance, deps: { ocsp: OcspResponder }): void {
  const params = (req: FastifyRequest) => req.params as { realmId: string; caId: string; '*'?: string };
  void app.register(async (scope) => {
    // RFC 6960 A.1 names application/ocsp-request; a client that labels its DER otherwise is
    // still answered (the bytes decide: malformedRequest when they are not a request).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: OCSP_BODY_LIMIT }, (_req, body, done) => done(null, body));
    // Whatever still goes wrong answers as OCSP does, never a JSON 500.
    scope.setErrorHandler((err: { statusCode?: number }, req, reply) => {
      if (err.statusCode === 413) return reply.status(413).type(MEDIA).header('cache-control', 'no-store').send(ocspError('malformedRequest'));
      if (!err.statusCode || err.statusCode >= 500) req.log.error({ err }, 'ocsp failed');
      return reply
        .status(200)
        .type(MEDIA)
        .header('cache-control', 'no-store')
        .send(ocspError(err.statusCode && err.statusCode < 500 ? 'malformedRequest' : 'internalError'));
    });

    scope.post(PATH, { config: { access: 'public' }, schema: { hide: true }, bodyLimit: OCSP_BODY_LIMIT }, async (req, reply) => {
      const { realmId, caId } = params(req);
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      return send(reply, await deps.ocsp.respond(realmId, caId, body), false);
    });

    // GET without a request: an OCSP answer saying so, not the console's page
    scope.get(PATH, { config: { access: 'public' }, schema: { hide: true } }, async (_req, reply) =>
      send(reply, { der: ocspError('malformedRequest'), status: 'malformedRequest', nonce: false }, false),
    );

    // The base64 may hold '/' unencoded: everything after …/ocsp/ is the request.
    scope.get(`${PATH}/*`, { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
      const { realmId, caId } = params(req);
      const der = decodePathRequest(params(req)['*'] ?? '');
      if (!der) return send(reply, { der: ocspError('malformedRequest'), status: 'malformedRequest', nonce: false }, false);
      return send(reply, await deps.ocsp.respond(realmId, caId, der), true);
    });
  });
}
