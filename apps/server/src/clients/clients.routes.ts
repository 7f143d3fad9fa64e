/**
 * OAuth clients and sub clients over HTTP (SPEC §2 "client list", "user/client", client
 * detail / edit / info, son-client add; §3; issue 12). Two doors to one service:
 *   - /api/users/realms/:realmId/clients… — administrators; `client.<action>` decided by the
 *     guard IN that realm before any lookup;
 *   - /api/users/user/clients… — a developer's own clients; `userClient.<action>` in the
 *     caller's realm; the owner is always the caller, never an id from the request.
 * HTTP only; rules in clients.service.ts.
 */
import {
  clientAdminParams,
  clientCreateBody,
  clientCreated,
  clientListQuery,
  clientListResult,
  clientOwnParams,
  clientRealmParams,
  clientSecretAnswer,
  clientUpdateBody,
  clientView,
  subClientCreateBody,
} from '@umbo/contracts';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requestMeta } from '../audit/request-meta.js';
import { assertThat } from '../platform/errors.js';
import { authOf, ok, responses } from '../platform/http.js';
import type { ClientCaller, ClientScope, ClientsService } from './clients.service.js';

const tags = ['clients'];
const ADMIN = '/api/users/realms/:realmId/clients';
const OWN = '/api/users/user/clients';
const ADMIN_NOTE = 'Clients of that realm (1004 for another realm’s client id).';
const OWN_NOTE = 'The signed-in developer’s own clients (userClient.<action> in its realm; others’ clients are 1004; a service account is refused 1003).';
const noStore = { 'cache-control': 'no-store' };

type Door = 'admin' | 'own';

const callerOf = (req: FastifyRequest): ClientCaller => ({ actor: actorOf(req), request: requestMeta(req) });

/** The scope of a call: the realm in the path, or the caller's realm and the caller as owner. */
function scopeOf(door: Door, req: FastifyRequest, action: string): ClientScope {
  if (door === 'admin') return { realmId: (req.params as { realmId: string }).realmId };
  const { account } = authOf(req);
  // Only a person owns clients: a service account acting for its owner does not.
  assertThat(account.kind === 'person', 'FORBIDDEN', { service: 'users', resource: 'userClient', perm: action });
  return { realmId: account.realm_id, ownerAccountId: account.id };
}

export function registerClientRoutes(app: FastifyInstance, deps: { clients: ClientsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = deps.clients;

  for (const door of ['admin', 'own'] as const) {
    const base = door === 'admin' ? ADMIN : OWN;
    const one = `${base}/:clientId`;
    const note = door === 'admin' ? ADMIN_NOTE : OWN_NOTE;
    const config = (action: string): FastifyContextConfig =>
      door === 'admin' ? { access: `client.${action}`, realm: 'params.realmId' } : { access: `userClient.${action}` };
    const listParams = door === 'admin' ? { params: clientRealmParams } : {};
    const oneParams = door === 'admin' ? clientAdminParams : clientOwnParams;
    const idOf = (req: FastifyRequest) => (req.params as { clientId: string }).clientId;

    r.get(
      base,
      {
        config: config('query'),
        schema: {
          tags,
          summary: `List top-level clients (oldest first, offset paged; q = start of client id or name), each with its sub clients; parent=none leaves the sub clients out. ${note}`,
          ...listParams,
          querystring: clientListQuery,
          response: responses(clientListResult),
        },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return ok(await s.list(scopeOf(door, req, 'query'), req.query));
      },
    );

    r.post(
      base,
      {
        config: config('add'),
        schema: {
          tags,
          summary: `Add a client (SPEC §3/§5; redirect URIs per A-03: 1009). clientId omitted: 32 random characters; taken: 1070. The secret (client_secret_basic/post) is answered this once. Other fields are refused (1009). ${note}`,
          ...listParams,
          body: clientCreateBody,
          response: responses(clientCreated),
        },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return ok(await s.create(scopeOf(door, req, 'add'), callerOf(req), req.body));
      },
    );

    r.get(
      one,
      {
        config: config('get'),
        schema: { tags, summary: `One client with every SPEC §3 field (never its secret). ${note}`, params: oneParams, response: responses(clientView) },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return ok(await s.get(scopeOf(door, req, 'get'), idOf(req)));
      },
    );

    r.patch(
      one,
      {
        config: config('update'),
        schema: {
          tags,
          summary: `Change a client (any field but clientId; allowAuthCode/allowToken on sub clients only). The realm's default client cannot be disabled (1074). ${note}`,
          params: oneParams,
          body: clientUpdateBody,
          response: responses(clientView),
        },
      },
      async (req) => ok(await s.update(scopeOf(door, req, 'update'), callerOf(req), idOf(req), req.body)),
    );

    r.delete(
      one,
      {
        config: config('delete'),
        schema: {
          tags,
          summary: `Delete a client with its sub clients, authorization records and tokens. Not the realm's default client (1074). ${note}`,
          params: oneParams,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await s.remove(scopeOf(door, req, 'delete'), callerOf(req), idOf(req));
        return ok(null);
      },
    );

    r.post(
      `${one}/secret`,
      {
        config: config('update'),
        schema: {
          tags,
          summary: `A new client secret, answered this once; the old one stops working at once. Clients without a secret (none, private_key_jwt): 1072. ${note}`,
          params: oneParams,
          response: responses(clientSecretAnswer),
        },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return ok(await s.regenerateSecret(scopeOf(door, req, 'update'), callerOf(req), idOf(req)));
      },
    );

    r.get(
      `${one}/sub-clients`,
      {
        config: config('query'),
        schema: { tags, summary: `The sub clients of a client. ${note}`, params: oneParams, response: responses(clientListResult) },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return ok(await s.listSubs(scopeOf(door, req, 'query'), idOf(req)));
      },
    );

    r.post(
      `${one}/sub-clients`,
      {
        config: config('add'),
        schema: {
          tags,
          summary: `Add a sub client (SPEC §3; name: SPEC §5 sub name). subClientId taken in the realm: 1071 "Sub-client ID already exists"; the parent must be a top-level client (1075). Its secret is answered this once. ${note}`,
          params: oneParams,
          body: subClientCreateBody,
          response: responses(clientCreated),
        },
      },
      async (req, reply) => {
        reply.headers(noStore);
        return ok(await s.createSub(scopeOf(door, req, 'add'), callerOf(req), idOf(req), req.body));
      },
    );
  }
}
