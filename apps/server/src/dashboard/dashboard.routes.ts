/**
 * The dashboard over HTTP (issue 11). HTTP only; rules in dashboard.service.ts and monitor.service.ts.
 *   GET /api/users/realms/:realmId/dashboard/analysis   dashboard.query in that realm ('*': every realm, admin of master)
 *   GET /api/users/dashboard/monitor                    dashboard.query in master (platform figures)
 *   GET /api/users/dashboard/workplace                  any signed-in account: the latest events of the realms whose trail it may read
 */
import { analysisQuery, analysisResult, monitorResult, workplaceResult } from '@umbo/contracts/dashboard';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, ok, responses } from '../platform/http.js';
import type { DashboardReader, DashboardService } from './dashboard.service.js';
import type { MonitorService } from './monitor.service.js';

const tags = ['dashboard'];
const realmParams = z.object({ realmId: z.string().min(1).max(64) });

export interface DashboardRouteDeps {
  dashboard: DashboardService;
  monitor: MonitorService;
  seesAllRealms(auth: NonNullable<FastifyRequest['auth']>): boolean;
}

export function registerDashboardRoutes(app: FastifyInstance, deps: DashboardRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const readerOf = (req: FastifyRequest): DashboardReader => {
    const auth = authOf(req);
    return { principal: auth.principal, allRealms: deps.seesAllRealms(auth) };
  };

  r.get(
    '/api/users/realms/:realmId/dashboard/analysis',
    {
      config: { access: 'dashboard.query', realm: 'params.realmId' },
      schema: {
        tags,
        summary:
          "Sign-ins per day by method and result, registrations, active accounts (distinct accounts signed in), locks and failures over the last 7, 30 or 90 days (days in the reader's utcOffset, minutes east of UTC), from the audit trail. realmId '*': every realm (administrators of master)",
        params: realmParams,
        querystring: analysisQuery,
        response: responses(analysisResult),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await deps.dashboard.analysis(readerOf(req), req.params.realmId, req.query));
    },
  );

  r.get(
    '/api/users/dashboard/monitor',
    {
      config: { access: 'dashboard.query' },
      schema: {
        tags,
        summary:
          "This server process's request rate, error rates and latency percentiles (ms) over the last minute, a five-minute series in 10-second buckets, database and Redis health with ping latency. Platform figures: dashboard.query in master only (1003 otherwise)",
        response: responses(monitorResult),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await deps.monitor.monitor(authOf(req).principal));
    },
  );

  r.get(
    '/api/users/dashboard/workplace',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary:
          'The latest audit events of the realms whose trail the caller may read (audit.query there; every realm for administrators of master), and those realms; empty for anyone else',
        response: responses(workplaceResult),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await deps.dashboard.workplace(readerOf(req)));
    },
  );
}
