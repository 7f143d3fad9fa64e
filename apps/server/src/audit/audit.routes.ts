/**
 * The audit trail over HTTP (issue 11). HTTP only; rules in audit-read.service.ts.
 *   GET /api/users/realms/:realmId/audit                      audit.query in that realm
 *   GET /api/users/realms/:realmId/audit/export.csv           audit.export in that realm
 *   GET /api/users/realms/:realmId/accounts/:accountId/timeline   person.get in that realm
 * `*` as the realm means every realm; the guard lets only administrators of master through
 * with it (no binding is scoped to `*`), and the service checks it again.
 */
import { auditFilter, auditPage, auditQuery, timelineQuery } from '@umbo/contracts/audit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { authOf, ok, responses } from '../platform/http.js';
import type { AuditReader, AuditReadService } from './audit-read.service.js';
import { actorOf, requestMeta } from './request-meta.js';

const tags = ['audit'];
const realmParams = z.object({ realmId: z.string().min(1).max(64) });
const timelineParams = realmParams.extend({ accountId: z.string().min(1).max(64) });

type Auth = NonNullable<FastifyRequest['auth']>;

export interface AuditRouteDeps {
  reads: AuditReadService;
  /** may this caller read every realm's trail (composition: admin bound in master) */
  seesAllRealms(auth: Auth): boolean;
}

export function registerAuditRoutes(app: FastifyInstance, deps: AuditRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const readerOf = (req: FastifyRequest): AuditReader => {
    const auth = authOf(req);
    return { allRealms: deps.seesAllRealms(auth), homeRealmId: auth.account.realm_id, actor: actorOf(req), request: requestMeta(req) };
  };

  r.get(
    '/api/users/realms/:realmId/audit',
    {
      config: { access: 'audit.query', realm: 'params.realmId' },
      schema: {
        tags,
        summary:
          "A realm's audit events, newest first, 'ok'/'fail', with keyset cursors (nextCursor: older, prevCursor: newer; direction=prev pages back). Filters: actor / target (id or exact name), action (exact or a prefix ending in '.'), result, from/to (epoch ms). realmId '*': every realm (administrators of master)",
        params: realmParams,
        querystring: auditQuery,
        response: responses(auditPage),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await deps.reads.list(readerOf(req), req.params.realmId, req.query));
    },
  );

  r.get(
    '/api/users/realms/:realmId/audit/export.csv',
    {
      config: { access: 'audit.export', realm: 'params.realmId' },
      schema: {
        tags,
        summary:
          "The events the filter matches as CSV (RFC 4180, UTF-8), streamed; cells starting with = + - @, tab or CR are prefixed with ' against formula injection. The export is itself recorded (audit.export with its row count)",
        params: realmParams,
        querystring: auditFilter,
      },
    },
    async (req, reply) => {
      const stream = Readable.from(deps.reads.exportCsv(readerOf(req), req.params.realmId, req.query));
      const day = new Date().toISOString().slice(0, 10);
      const name = `audit-${req.params.realmId === '*' ? 'all' : req.params.realmId.replace(/[^\w.-]/g, '_')}-${day}.csv`;
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${name}"`)
        .type('text/csv; charset=utf-8')
        .send(stream);
    },
  );

  r.get(
    '/api/users/realms/:realmId/accounts/:accountId/timeline',
    {
      config: { access: 'person.get', realm: 'params.realmId' },
      schema: {
        tags,
        summary:
          "An account's timeline: the audit events it did (actor) or that were done to it (target), newest first, keyset cursors. 1004 when the realm has no such account",
        params: timelineParams,
        querystring: timelineQuery,
        response: responses(auditPage),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await deps.reads.timeline(req.params.realmId, req.params.accountId, req.query));
    },
  );
}
