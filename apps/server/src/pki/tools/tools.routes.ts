/**
 * Certificate tools over HTTP (SPEC §2 "tools"; issue 13): convert format, view certificate,
 * view CSR. `tools.query` in the caller's realm: they read what the caller sends and store
 * nothing (no database, no audit entry), so a read permission is enough although they POST —
 * the input is too large and too secret (keys, PKCS#12 passwords) for a query string.
 * HTTP only; the work is in convert.ts and decode.ts.
 */
import { PKI_LIMITS, convertBody, convertResult, decodedView, pkiPaths, viewBody } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../platform/http.js';
import { convert } from './convert.js';
import { decodeCertificate, decodeCsr } from './decode.js';

const tags = ['cert'];
const noStore = { 'cache-control': 'no-store' };
/** JSON around the largest input the contract allows (base64 input + a key PEM), with room to spare: more is 413/1013 before parsing. */
const CONVERT_BODY_LIMIT = 2 * (PKI_LIMITS.toolInputMaxBytes + PKI_LIMITS.pemMaxBytes);
const VIEW_BODY_LIMIT = 2 * PKI_LIMITS.pemMaxBytes;

export function registerToolRoutes(app: FastifyInstance, deps: { now: () => number }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    pkiPaths.convert,
    {
      config: { access: 'tools.query' },
      bodyLimit: CONVERT_BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Convert between PEM, DER (base64), PKCS#12 (base64, password) and PKCS#7 (PEM or base64): certificates, chains, CSRs and keys. ' +
          'Certificate + keyPem → PKCS#12 (PBES2 AES-256 / SHA-256 MAC, opens without -legacy). Empty input 1101; not PEM/DER, truncated or wrong label 1102; ' +
          'wrong password or an impossible conversion 1113; a key that matches no certificate 1111. Nothing is stored.',
        body: convertBody,
        response: responses(convertResult),
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return ok(await convert(req.body));
    },
  );

  r.post(
    pkiPaths.viewCert,
    {
      config: { access: 'tools.query' },
      bodyLimit: VIEW_BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Every field of a PEM certificate, readable: version, serial (decimal and hex), algorithms, names, validity, public key, each extension by name ' +
          '(unknown ones as OID and hex), SHA-1/SHA-256 fingerprints. Empty 1101; not a PEM certificate 1102.',
        body: viewBody,
        response: responses(decodedView),
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return ok(decodeCertificate(req.body.pem, deps.now()));
    },
  );

  r.post(
    pkiPaths.viewCsr,
    {
      config: { access: 'tools.query' },
      bodyLimit: VIEW_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Every field of a PEM CSR, readable, with its requested extensions and whether its signature verifies. Empty 1100; not a PEM CSR 1102.',
        body: viewBody,
        response: responses(decodedView),
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return ok(decodeCsr(req.body.pem));
    },
  );
}
