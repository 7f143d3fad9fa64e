/**
 * Realm export (GET …/:realmId/export, domain.export in the realm; ?accounts=1 adds the
 * accounts, person.export too) and import (POST /api/users/realms/import, ?dryRun=1 reports
 * and writes nothing). HTTP only; rules in realm-transfer.service.ts.
 */
import { realmExport, realmExportQuery, realmImportBody, realmImportQuery, realmImportReport, realmParams } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, requestMeta } from '../audit/request-meta.js';
import { authOf, ok, responses } from '../platform/http.js';
import type { RealmTransferService } from './realm-transfer.service.js';

const tags = ['realms'];

export function registerRealmTransferRoutes(app: FastifyInstance, deps: { transfer: RealmTransferService; importBodyLimit: number }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { transfer } = deps;

  r.get(
    '/api/users/realms/:realmId/export',
    {
      config: { access: 'domain.export', realm: 'params.realmId' },
      schema: {
        tags,
        params: realmParams,
        querystring: realmExportQuery,
        response: responses(realmExport),
        summary:
          'The realm as one JSON document: settings (secrets sealed for this installation), roles, and with ?accounts=1 its accounts with password hashes',
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      reply.header('content-disposition', `attachment; filename="realm-${req.params.realmId}.json"`);
      return ok(await transfer.exportRealm(req.params.realmId, req.query.accounts === '1', authOf(req).principal));
    },
  );

  r.post(
    '/api/users/realms/import',
    {
      // The realm is named in the body (targetRealmId or the document's): the service decides
      // domain.import there, or domain.add + import in master for a new realm.
      config: { access: 'session' },
      bodyLimit: deps.importBodyLimit,
      schema: {
        tags,
        querystring: realmImportQuery,
        body: realmImportBody,
        response: responses(realmImportReport),
        summary:
          'Import a realm export, into a new realm or replacing one; all or nothing. ?dryRun=1 answers the report and writes nothing. 1035 names what cannot be imported',
      },
    },
    async (req) => {
      const caller = { principal: authOf(req).principal, actor: actorOf(req), request: requestMeta(req) };
      return ok(await transfer.importRealm(req.body, req.query.dryRun === '1', caller));
    },
  );
}
