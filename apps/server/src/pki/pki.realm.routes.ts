/**
 * A realm's certificate authority for its administrators (issue 13; SPEC §2 domain/cert):
 * the chain (platform root → realm intermediate, which can be renewed), the account CAs of the realm's accounts
 * (renew, revoke, replace a revoked one with a new key) and the expiry inventory.
 * `domainCert.<action>` decided by the guard IN the realm of the path; an account CA of another
 * realm is 1004. The platform root belongs to no realm: only master's administrators renew it.
 */
import { accountCaList, accountCaQuery, caParams, certRevokeBody, caView, expiryInventory, expiryQuery, realmChain } from '@umbo/contracts';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MASTER_REALM } from '../perm/builtin-roles.js';
import { fail } from '../platform/errors.js';
import { authOf, ok, responses } from '../platform/http.js';
import type { CaService } from './ca.service.js';
import type { CertsService } from './certs.service.js';
import { callerOf } from './pki.routes.js';
import type { RevokeService } from './revoke.js';

const tags = ['cert'];
const realmParams = z.object({ realmId: z.string().min(1).max(64) });

export function registerPkiRealmRoutes(app: FastifyInstance, deps: { ca: CaService; revoke: RevokeService; certs: CertsService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ca, revoke, certs } = deps;
  const config = (action: string): FastifyContextConfig => ({ access: `domainCert.${action}`, realm: 'params.realmId' });

  r.get(
    '/api/cert/realms/:realmId/chain',
    {
      config: config('get'),
      schema: {
        tags,
        summary: "The realm's chain: platform root and realm intermediate (made on first need)",
        params: realmParams,
        response: responses(realmChain),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const intermediate = await ca.realmCa(req.params.realmId);
      const root = await ca.platformRoot();
      return ok({ root: ca.view(root), intermediate: ca.view(intermediate) });
    },
  );

  r.post(
    '/api/cert/realms/:realmId/intermediate/renew',
    {
      config: config('update'),
      schema: {
        tags,
        summary:
          "Renew the realm intermediate: same key and subject, new serial, validity the realm's realmMiddleCertValidity; account CAs and certificates it issued keep verifying",
        params: realmParams,
        response: responses(realmChain),
      },
    },
    async (req) => {
      const renewed = await ca.renew(await ca.realmCa(req.params.realmId), callerOf(req));
      return ok({ root: ca.view(await ca.platformRoot()), intermediate: ca.view(renewed) });
    },
  );

  r.post(
    '/api/cert/platform-root/renew',
    {
      // No realm source: the guard checks domainCert.update in the caller's own realm, and the
      // root signs every realm's intermediate — so that realm must be master.
      config: { access: 'domainCert.update' },
      schema: {
        tags,
        summary:
          'Renew the platform root (administrators of master holding domainCert.update): same key and subject, new serial and validity; every realm intermediate and what it issued keeps verifying, the previous root stays valid until it ends',
        response: responses(caView),
      },
    },
    async (req) => {
      if (authOf(req).principal.realmId !== MASTER_REALM) throw fail('FORBIDDEN', { service: 'users', resource: 'domainCert', perm: 'update' });
      return ok(ca.view(await ca.renew(await ca.platformRoot(), callerOf(req))));
    },
  );

  r.get(
    '/api/cert/realms/:realmId/account-cas',
    {
      config: config('query'),
      schema: {
        tags,
        summary: "The account CAs of the realm's accounts, newest first (q: start of the user name)",
        params: realmParams,
        querystring: accountCaQuery,
        response: responses(accountCaList),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await ca.listAccountCas(req.params.realmId, req.query));
    },
  );

  r.post(
    '/api/cert/realms/:realmId/account-cas/:caId/renew',
    {
      config: config('update'),
      schema: {
        tags,
        summary: 'Renew an account CA: same key and subject, new serial and validity; issued certificates keep verifying',
        params: caParams,
        response: responses(caView),
      },
    },
    async (req) => {
      const renewed = await ca.renew(await ca.accountCaIn(req.params.realmId, req.params.caId), callerOf(req));
      return ok(ca.view(renewed));
    },
  );

  r.post(
    '/api/cert/realms/:realmId/account-cas/:caId/revoke',
    {
      config: config('update'),
      schema: {
        tags,
        summary:
          "Revoke an account CA (listed in the realm intermediate's CRL); it issues nothing more and is never renewed (1114): its account's next issuance, or …/replace, makes a new CA with a new key",
        params: caParams,
        body: certRevokeBody,
        response: responses(caView),
      },
    },
    async (req) => {
      await revoke.revokeAccountCa(req.params.realmId, req.params.caId, req.body.reason, callerOf(req));
      return ok(ca.view(await ca.accountCaIn(req.params.realmId, req.params.caId)));
    },
  );

  r.post(
    '/api/cert/realms/:realmId/account-cas/:caId/replace',
    {
      config: config('update'),
      schema: {
        tags,
        summary:
          "Replace a revoked account CA: a new account CA with a NEW key for its account (the account's next issuance does the same); the revoked one and what it issued stay in the CRLs. Not revoked: 1009",
        params: caParams,
        response: responses(caView),
      },
    },
    async (req) => {
      const next = await ca.replaceRevoked(req.params.realmId, req.params.caId, callerOf(req));
      return ok(ca.view(next));
    },
  );

  r.get(
    '/api/cert/realms/:realmId/expiring',
    {
      config: config('query'),
      schema: {
        tags,
        summary: 'Expiry inventory: counts within 7/30/90 days and the certificates (CA certificates too) ending within withinDays',
        params: realmParams,
        querystring: expiryQuery,
        response: responses(expiryInventory),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await certs.expiring(req.params.realmId, req.query.withinDays));
    },
  );
}
