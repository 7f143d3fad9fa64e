/**
 * CSV import and export of a realm's person accounts (issue 11; SPEC §6 `import`, `export`).
 * HTTP only. Registered as an encapsulated plugin: its text/csv body parser (up to 10 MB,
 * above the server's BODY_LIMIT) applies to these routes and to no other.
 */
import { Readable } from 'node:stream';
import { PERSON_LIMITS, personFilterQuery, personImportQuery, personImportReport, personRealmParams } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fail } from '../platform/errors.js';
import { failEnvelope, ok, responses } from '../platform/http.js';
import type { PersonImportService } from './person-import.service.js';
import type { PersonListService } from './person-list.service.js';
import { adminCall } from './person.routes.js';

const tags = ['person accounts'];
const BASE = '/api/users/realms/:realmId/accounts';

export function registerPersonCsvRoutes(app: FastifyInstance, deps: { list: PersonListService; importer: PersonImportService }) {
  void app.register(async (scope) => {
    scope.addContentTypeParser(['text/csv', 'application/csv'], { parseAs: 'buffer', bodyLimit: PERSON_LIMITS.importBytes }, (_req, body, done) =>
      done(null, body),
    );
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.post(
      `${BASE}/import`,
      {
        bodyLimit: PERSON_LIMITS.importBytes,
        config: { access: 'person.import', realm: 'params.realmId' },
        schema: {
          tags,
          summary:
            'Import person accounts from a text/csv body (UTF-8, at most 10 MB, header userName,email,phone[,password]). dryRun=1: the row-level report, nothing written. Otherwise every row or none: row errors answer 1041 with the report in errData; an unreadable file answers 1040 with the reason',
          params: personRealmParams,
          querystring: personImportQuery,
          response: responses(personImportReport),
        },
      },
      async (req) => {
        const body: unknown = req.body;
        if (!Buffer.isBuffer(body)) throw fail('CSV_INVALID', { reason: body === undefined || body === null ? 'empty' : 'content_type' });
        const dryRun = req.query.dryRun === '1' || req.query.dryRun === 'true';
        return ok(await deps.importer.importCsv(req.params.realmId, body, dryRun, adminCall(req)));
      },
    );

    r.get(
      `${BASE}/export.csv`,
      {
        config: { access: 'person.export', realm: 'params.realmId' },
        schema: {
          tags,
          summary:
            "The person accounts the filter matches (the list's filters and order), as a streamed CSV download of any size. Cells that a spreadsheet would run as a formula (= + - @, tab, CR) start with an apostrophe",
          params: personRealmParams,
          querystring: personFilterQuery,
          response: { 200: z.any().describe('text/csv'), '4xx': failEnvelope, '5xx': failEnvelope },
        },
      },
      async (req, reply) => {
        const rows = await deps.list.exportCsv(req.params.realmId, req.query, adminCall(req));
        const day = new Date().toISOString().slice(0, 10);
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="accounts-${req.params.realmId.replace(/[^\w.-]/g, '_')}-${day}.csv"`)
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff');
        return reply.send(Readable.from(rows));
      },
    );
  });
}
