/**
 * Service (sub) accounts over HTTP (SPEC §2 "sub-account add/edit/info/resources/change
 * password", §3, §4; issue 11). Two doors to one service (service-accounts.service.ts):
 *   - /api/users/realms/:realmId/accounts/:ownerId/services… — an administrator names the
 *     owner; `service.<action>` decided by the guard IN that realm before any lookup;
 *   - /api/users/account/services… — a person's own; `userService.<action>` in the caller's
 *     realm, the owner is always the caller (never an id from the request, A-40).
 * HTTP only.
 */
import {
  serviceAccountPage,
  serviceAccountView,
  serviceAdminParams,
  serviceCreateBody,
  serviceListQuery,
  serviceOwnerParams,
  serviceOwnParams,
  servicePasswordBody,
  serviceResourcesBody,
  serviceResourcesView,
  serviceUpdateBody,
} from '@umbo/contracts';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requestMeta } from '../audit/request-meta.js';
import type { Account } from '../accounts/accounts.repo.js';
import { authOf, ok, responses } from '../platform/http.js';
import type { Caller, ServiceAccountService } from './service-accounts.service.js';

const tags = ['service accounts'];
const ADMIN = '/api/users/realms/:realmId/accounts/:ownerId/services';
const OWN = '/api/users/account/services';
const ADMIN_NOTE = 'The owner is a person account of that realm (1004 otherwise, also for another realm’s ids).';
const OWN_NOTE = 'The signed-in person’s own service accounts (userService.<action> in its realm; a service account is refused 1003).';

function callerOf(req: FastifyRequest): Caller {
  const auth = authOf(req);
  return { account: auth.account, principal: auth.principal, actor: actorOf(req), request: requestMeta(req) };
}

type Door = 'admin' | 'own';
type Params = { realmId?: string; ownerId?: string; serviceId?: string };

/** One route on each door: the permission, the paths and the owner differ, the work is the same. */
export function registerServiceAccountRoutes(app: FastifyInstance, deps: { services: ServiceAccountService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = deps.services;

  const owner = (door: Door, req: FastifyRequest, action: string): Promise<Account> => {
    const p = req.params as Params;
    return door === 'admin' ? s.ownerIn(p.realmId!, p.ownerId!) : Promise.resolve(s.ownerSelf(callerOf(req), action));
  };
  const config = (door: Door, action: string): FastifyContextConfig =>
    door === 'admin' ? { access: `service.${action}`, realm: 'params.realmId' } : { access: `userService.${action}` };
  const params = (door: Door, one: boolean) => (door === 'admin' ? (one ? serviceAdminParams : serviceOwnerParams) : one ? serviceOwnParams : undefined);
  const note = (door: Door) => (door === 'admin' ? ADMIN_NOTE : OWN_NOTE);
  const noStore = { 'cache-control': 'no-store' };

  for (const door of ['admin', 'own'] as const) {
    const base = door === 'admin' ? ADMIN : OWN;
    const one = `${base}/:serviceId`;
    const idOf = (req: FastifyRequest) => (req.params as Params).serviceId!;

    r.get(
      base,
      {
        config: config(door, 'query'),
        schema: {
          tags,
          summary: `List an owner's service accounts in sub-name order, keyset paged (cursor + direction next/prev), q = start of the sub name. ${note(door)}`,
          ...(params(door, false) ? { params: params(door, false) } : {}),
          querystring: serviceListQuery,
          response: responses(serviceAccountPage),
        },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return ok(await s.list(await owner(door, req, 'query'), req.query));
      },
    );

    r.post(
      base,
      {
        config: config(door, 'add'),
        schema: {
          tags,
          summary: `Add a service account owner/subname (SPEC §5 sub name: 1009; taken for this owner: 1050; weak password: 1021). Other fields are refused (1009). ${note(door)}`,
          ...(params(door, false) ? { params: params(door, false) } : {}),
          body: serviceCreateBody,
          response: responses(serviceAccountView),
        },
      },
      async (req) => ok(await s.create(callerOf(req), await owner(door, req, 'add'), req.body)),
    );

    r.get(
      one,
      {
        config: config(door, 'get'),
        schema: { tags, summary: `One service account (SPEC §3 fields). ${note(door)}`, params: params(door, true)!, response: responses(serviceAccountView) },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return ok(await s.get(await owner(door, req, 'get'), idOf(req)));
      },
    );

    r.patch(
      one,
      {
        config: config(door, 'edit'),
        schema: {
          tags,
          summary: `Change the description, registration area or "must change its password at the next sign-in". Other fields are refused (1009). ${note(door)}`,
          params: params(door, true)!,
          body: serviceUpdateBody,
          response: responses(serviceAccountView),
        },
      },
      async (req) => ok(await s.update(callerOf(req), await owner(door, req, 'edit'), idOf(req), req.body)),
    );

    r.delete(
      one,
      {
        config: config(door, 'delete'),
        schema: { tags, summary: `Delete a service account; its sessions end. ${note(door)}`, params: params(door, true)!, response: responses(z.null()) },
      },
      async (req) => {
        await s.remove(callerOf(req), await owner(door, req, 'delete'), idOf(req));
        return ok(null);
      },
    );

    for (const action of ['enable', 'disable'] as const) {
      r.post(
        `${one}/${action}`,
        {
          config: config(door, action),
          schema: {
            tags,
            summary: `${action === 'enable' ? 'Enable' : 'Disable (its sessions end)'} a service account (SPEC §4). ${note(door)}`,
            params: params(door, true)!,
            response: responses(serviceAccountView),
          },
        },
        async (req) => ok(await s.setEnabled(callerOf(req), await owner(door, req, action), idOf(req), action === 'enable')),
      );
    }

    r.put(
      `${one}/password`,
      {
        config: config(door, 'update'),
        schema: {
          tags,
          summary: `Set the password (1021 when weak); by default it must be changed at the next sign-in. Its sessions end. Refused (1052) when the service account holds a permission the caller lacks. ${note(door)}`,
          params: params(door, true)!,
          body: servicePasswordBody,
          response: responses(serviceAccountView),
        },
      },
      async (req) => ok(await s.setPassword(callerOf(req), await owner(door, req, 'update'), idOf(req), req.body)),
    );

    r.get(
      `${one}/resources`,
      {
        config: config(door, 'get'),
        schema: {
          tags,
          summary: `The service account's grants, what the caller may grant it, and what it can do now (grants within the owner's current permissions). ${note(door)}`,
          params: params(door, true)!,
          response: responses(serviceResourcesView),
        },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return ok(await s.getResources(callerOf(req), await owner(door, req, 'get'), idOf(req)));
      },
    );

    r.put(
      `${one}/resources`,
      {
        config: config(door, 'edit'),
        schema: {
          tags,
          summary: `Replace the grants (permissionId.action). A grant the owner does not hold, or that would give the service account more than the caller holds, is refused (1051). ${note(door)}`,
          params: params(door, true)!,
          body: serviceResourcesBody,
          response: responses(serviceResourcesView),
        },
      },
      async (req) => ok(await s.setResources(callerOf(req), await owner(door, req, 'edit'), idOf(req), req.body.grants)),
    );
  }
}
