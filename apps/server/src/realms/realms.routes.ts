/**
 * /api/users/realms: the domain list, create, read, change, delete (issue 11). HTTP only;
 * rules in realms.service.ts. Reading and changing one realm are decided by the guard in
 * that realm (config.realm, A-39); the list shows what the caller may see; creating and
 * deleting are checked in the master realm by the service.
 */
import { realmCreate, realmDelete, realmDeleted, realmDetail, realmListQuery, realmListResult, realmParams, realmUpdate } from '@umbo/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, requestMeta } from '../audit/request-meta.js';
import { authOf, ok, responses } from '../platform/http.js';
import type { RealmsService } from './realms.service.js';

const tags = ['realms'];
const caller = (req: FastifyRequest) => ({ principal: authOf(req).principal, actor: actorOf(req), request: requestMeta(req) });

export function registerRealmRoutes(app: FastifyInstance, deps: { realms: RealmsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { realms } = deps;

  r.get(
    '/api/users/realms',
    {
      // Which realms: decided per realm by the service (every realm for the platform's
      // administrators, else those where the caller holds domain.query; none: 1003).
      config: { access: 'session' },
      schema: {
        tags,
        querystring: realmListQuery,
        response: responses(realmListResult),
        summary: 'The realms the caller may see (domain.query), by id; q: prefix of id or domain',
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await realms.list(authOf(req).principal, req.query));
    },
  );

  r.post(
    '/api/users/realms',
    {
      config: { access: 'domain.add' },
      schema: {
        tags,
        body: realmCreate,
        response: responses(realmDetail),
        summary: 'Create a realm (domain.add in master). realmId is fixed afterwards; 1030 when taken; settings as in PATCH …/settings',
      },
    },
    async (req) => ok(await realms.create(req.body, caller(req))),
  );

  r.get(
    '/api/users/realms/:realmId',
    {
      config: { access: 'domain.get', realm: 'params.realmId' },
      schema: { tags, params: realmParams, response: responses(realmDetail), summary: 'One realm with its settings (secrets answered as "" + hasX)' },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await realms.detail(req.params.realmId));
    },
  );

  r.patch(
    '/api/users/realms/:realmId',
    {
      config: { access: 'domain.edit', realm: 'params.realmId' },
      schema: {
        tags,
        params: realmParams,
        body: realmUpdate,
        response: responses(realmDetail),
        summary: 'Change the domain name or description (the realm id is fixed)',
      },
    },
    async (req) => ok(await realms.update(req.params.realmId, req.body, caller(req))),
  );

  r.delete(
    '/api/users/realms/:realmId',
    {
      // A platform act: the guard checks domain.delete in the named realm (so another realm's
      // administrator learns nothing, A-39), then the service requires it in master too.
      config: { access: 'domain.delete', realm: 'params.realmId' },
      schema: {
        tags,
        params: realmParams,
        body: realmDelete,
        response: responses(realmDeleted),
        summary:
          'Delete a realm and everything in it (domain.delete in master). master: 1031. With accounts: 1032 {accountCount} unless the body is {confirmDeleteEverything: true, accountCount: <that count>}',
      },
    },
    async (req) => ok(await realms.remove(req.params.realmId, req.body ?? {}, caller(req))),
  );
}
