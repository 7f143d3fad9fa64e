/**
 * The caller's own CA, keys, certificates and issue records over HTTP (issue 13; SPEC §2
 * account/cert/*). Always the caller's own account and account CA — never an id from the
 * request (another account's key or certificate is 1004). HTTP only: rules in the services.
 */
import {
  caEditBody,
  caView,
  certIssueBody,
  certList,
  certListQuery,
  certParams,
  certRecordList,
  certRecordQuery,
  certRevokeBody,
  certView,
  CHAIN_FORMATS,
  keyCreateBody,
  keyCreated,
  keyList,
  keyParams,
  keyView,
  setCertBody,
} from '@umbo/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requestMeta } from '../audit/request-meta.js';
import { authOf, ok, responses } from '../platform/http.js';
import type { CaAccount, CaCaller, CaService } from './ca.service.js';
import type { CertsService } from './certs.service.js';
import type { IssueService } from './issue.js';
import type { KeysService } from './keys.service.js';
import { pemOf } from './profile.js';
import type { RevokeService } from './revoke.js';

const tags = ['cert'];
const noStore = { 'cache-control': 'no-store' };

export const accountOf = (req: FastifyRequest): CaAccount => {
  const { account } = authOf(req);
  return { id: account.id, realmId: account.realm_id, username: account.username };
};
export const callerOf = (req: FastifyRequest): CaCaller => ({ actor: actorOf(req), request: requestMeta(req) });

/** The p7b builder lives with the tools (pki-tools); loaded on first use so this file does not depend on its load order. */
async function pkcs7(certsDer: Uint8Array[]): Promise<Uint8Array> {
  const { pkcs7Of } = await import('./tools/pkcs7.js');
  return pkcs7Of(certsDer);
}

export function registerPkiRoutes(
  app: FastifyInstance,
  deps: { ca: CaService; keys: KeysService; issue: IssueService; revoke: RevokeService; certs: CertsService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ca, keys, issue, revoke, certs } = deps;

  r.get(
    '/api/cert/ca',
    {
      config: { access: 'cert.get' },
      schema: { tags, summary: "The caller's account CA (account root certificate), made on first need", response: responses(caView) },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const a = accountOf(req);
      return ok(ca.view(await ca.accountCa(a), a.username));
    },
  );

  r.patch(
    '/api/cert/ca',
    {
      config: { access: 'cert.edit' },
      schema: {
        tags,
        summary: 'Edit CA: description (4–50), default and maximum issuance period (days, not under 30)',
        body: caEditBody,
        response: responses(caView),
      },
    },
    async (req) => ok(await ca.editOwn(accountOf(req), req.body, callerOf(req))),
  );

  r.get(
    '/api/cert/ca/chain',
    {
      config: { access: 'cert.get' },
      schema: {
        tags,
        summary: 'Download CA: the chain account CA → realm intermediate → platform root as PEM, the account CA as DER, or the chain as PKCS#7 (p7b)',
        querystring: z.object({ format: z.enum(CHAIN_FORMATS).default('pem') }),
      },
    },
    async (req, reply) => {
      const chain = await ca.chainOf(await ca.accountCa(accountOf(req)));
      const ders = chain.map((c) => new Uint8Array(c.cert.rawData));
      reply.headers(noStore);
      if (req.query.format === 'der') {
        return reply.type('application/pkix-cert').header('content-disposition', 'attachment; filename="ca.cer"').send(Buffer.from(ders[0]!));
      }
      if (req.query.format === 'p7b') {
        return reply
          .type('application/pkcs7-mime')
          .header('content-disposition', 'attachment; filename="ca-chain.p7b"')
          .send(Buffer.from(await pkcs7(ders)));
      }
      const pem = ders.map((d) => pemOf('CERTIFICATE', d)).join('');
      return reply.type('application/x-pem-file').header('content-disposition', 'attachment; filename="ca-chain.pem"').send(pem);
    },
  );

  // --- keys
  r.get(
    '/api/cert/keys',
    { config: { access: 'keys.query' }, schema: { tags, summary: "The caller's managed keys, newest first", response: responses(keyList) } },
    async (req, reply) => {
      reply.headers(noStore);
      return ok({ items: await keys.list(accountOf(req)) });
    },
  );

  r.post(
    '/api/cert/keys',
    {
      config: { access: 'keys.add' },
      schema: {
        tags,
        summary: 'Generate a key (RSA 2048/3072/4096, EC P-256/P-384, Ed25519); keyPem (PKCS#8) is answered this once when returnPrivateKey. 1108: name taken',
        body: keyCreateBody,
        response: responses(keyCreated),
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return ok(await keys.create(accountOf(req), req.body, callerOf(req)));
    },
  );

  r.get(
    '/api/cert/keys/:keyId',
    { config: { access: 'keys.get' }, schema: { tags, summary: 'One managed key (public part only)', params: keyParams, response: responses(keyView) } },
    async (req) => ok(await keys.get(accountOf(req), req.params.keyId)),
  );

  r.get(
    '/api/cert/keys/:keyId/public.pem',
    { config: { access: 'keys.get' }, schema: { tags, summary: 'Download the public key (SPKI PEM)', params: keyParams } },
    async (req, reply) => {
      const key = await keys.get(accountOf(req), req.params.keyId);
      return reply.type('application/x-pem-file').header('content-disposition', `attachment; filename="${key.name}.pub.pem"`).send(key.publicKeyPem);
    },
  );

  r.delete(
    '/api/cert/keys/:keyId',
    {
      config: { access: 'keys.delete' },
      schema: { tags, summary: 'Delete a key; 1107 while a valid certificate uses it', params: keyParams, response: responses(z.object({})) },
    },
    async (req) => {
      await keys.remove(accountOf(req), req.params.keyId, callerOf(req));
      return ok({});
    },
  );

  r.post(
    '/api/cert/keys/:keyId/cert',
    {
      config: { access: 'certList.import' },
      schema: {
        tags,
        summary: 'Set cert: attach an externally issued certificate to the key (1111 other key; 1110 chain not ours unless allowUnknownCa)',
        params: keyParams,
        body: setCertBody,
        response: responses(certView),
      },
    },
    async (req) => {
      const a = accountOf(req);
      return ok(await certs.get(a, (await issue.setCert(a, req.params.keyId, req.body, callerOf(req))).id));
    },
  );

  // --- certificates
  r.get(
    '/api/cert/certs',
    {
      config: { access: 'certList.query' },
      schema: {
        tags,
        summary: "The caller's certificates, newest first (filters: status, expiring within N days, key, CN prefix, serial)",
        querystring: certListQuery,
        response: responses(certList),
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      const { status, expiringWithinDays, keyId, cn, sn, cursor, limit } = req.query;
      return ok(await certs.list(accountOf(req), { status, expiringWithinDays, keyId, cn, sn, cursor, limit }));
    },
  );

  r.post(
    '/api/cert/certs',
    {
      config: { access: 'certList.add' },
      schema: {
        tags,
        summary: 'Issue a certificate from a PEM CSR or a managed key under the caller’s account CA',
        body: certIssueBody,
        response: responses(certView),
      },
    },
    async (req) => {
      const b = req.body;
      const row = await issue.issue({
        account: accountOf(req),
        type: b.type,
        csrPem: b.csrPem,
        keyId: b.keyId,
        cnType: b.cnType,
        cn: b.cn,
        san: b.san,
        notBeforeTs: b.notBeforeTs,
        expireAtTs: b.expireAtTs,
        desc: b.desc,
        caller: callerOf(req),
      });
      return ok(certs.view(row));
    },
  );

  r.get(
    '/api/cert/certs/:certId',
    { config: { access: 'certList.get' }, schema: { tags, summary: 'One certificate', params: certParams, response: responses(certView) } },
    async (req) => ok(await certs.get(accountOf(req), req.params.certId)),
  );

  r.post(
    '/api/cert/certs/:certId/reissue',
    {
      config: { access: 'certList.add' },
      schema: { tags, summary: 'Reissue: same key and subject, new serial and validity', params: certParams, response: responses(certView) },
    },
    async (req) => {
      const a = accountOf(req);
      return ok(certs.view(await issue.reissue(a, req.params.certId, callerOf(req))));
    },
  );

  r.post(
    '/api/cert/certs/:certId/revoke',
    {
      config: { access: 'certList.update' },
      schema: {
        tags,
        summary: 'Revoke with an RFC 5280 reason; the CRL is regenerated at once. 1109 when already revoked',
        params: certParams,
        body: certRevokeBody,
        response: responses(certView),
      },
    },
    async (req) => {
      const a = accountOf(req);
      return ok(await certs.get(a, (await revoke.revokeOwn(a, req.params.certId, req.body.reason, callerOf(req))).id));
    },
  );

  r.get(
    '/api/cert/records',
    {
      config: { access: 'certRecord.query' },
      schema: {
        tags,
        summary: "The caller's issue records (issue, reissue, revoke, import, CA renewal), newest first",
        querystring: certRecordQuery,
        response: responses(certRecordList),
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return ok(await certs.records(accountOf(req), req.query));
    },
  );
}
